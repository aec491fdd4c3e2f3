// El catálogo en español, un módulo por parte de la aplicación, con las mismas claves que el inglés (../en/): TextOf
// hace que una clave que falte o sobre no compile, y tests/unit/renderer/i18n-catalogs.test.ts compara los valores
// con nombre de cada mensaje.
import type { TextOf } from '../../charts/text-of.ts';
import type { en } from '../en/index.ts';
import { app } from './app.ts';
import { devices } from './devices.ts';
import { history } from './history.ts';
import { kernelChart } from './kernel-chart.ts';
import { labs } from './labs.ts';
import { playground } from './playground.ts';
import { report } from './report.ts';
import { results } from './results.ts';

export const es: TextOf<typeof en> = { app, devices, labs, results, history, report, playground, kernelChart };
