// Every word GPU Lab says in English, one module per part, each under its name: the app's pages (app … kernelChart,
// which vue-i18n reads in the renderer), the CLI (cli), the PDF report (pdf), the labs' findings and series
// (labText) and the playground's exercises (exercises). ../es/index.ts has the same keys in Spanish.
import { app } from './app.ts';
import { classroom } from './classroom.ts';
import { cli } from './cli.ts';
import { devices } from './devices.ts';
import { errorDetails, errors } from './errors.ts';
import { exercises } from './exercises.ts';
import { history } from './history.ts';
import { kernelChart } from './kernel-chart.ts';
import { labDescriptors as labAbout, labText, sharedParameters as labShared } from './lab-text.ts';
import { labs } from './labs.ts';
import { machines } from './machines.ts';
import { pdf } from './pdf.ts';
import { playground } from './playground.ts';
import { reasons } from './reasons.ts';
import { report } from './report.ts';
import { results } from './results.ts';
import { resultsTable } from './results-table.ts';

// The parts the renderer's vue-i18n reads (the rest stays out of its bundle).
export const appMessages = { app, devices, labs, results, resultsTable, history, report, playground, kernelChart, errors, errorDetails, reasons, classroom, machines };

export const en = { ...appMessages, cli, pdf, labText, labAbout, labShared, exercises };

export type Messages = typeof en;
