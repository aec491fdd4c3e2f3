// The English catalog, one module per part of the app; each module's keys sit under its name ("devices.…").
import { app } from './app.ts';
import { devices } from './devices.ts';
import { history } from './history.ts';
import { kernelChart } from './kernel-chart.ts';
import { labs } from './labs.ts';
import { playground } from './playground.ts';
import { report } from './report.ts';
import { results } from './results.ts';

export const en = { app, devices, labs, results, history, report, playground, kernelChart };
