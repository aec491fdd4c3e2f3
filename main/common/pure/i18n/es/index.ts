// Todas las palabras de GPU Lab en español, con las mismas claves que ../en/index.ts: TextOf hace que una clave que
// falte o sobre no compile, y tests/unit/i18n/catalogs.test.ts comprueba que cada mensaje use los mismos valores con
// nombre que en inglés y que vue-i18n pueda leerlo.
import type { Messages } from '../en/index.ts';
import type { TextOf } from '../translate.ts';
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

export const appMessages = { app, devices, labs, results, resultsTable, history, report, playground, kernelChart, errors, errorDetails, reasons, classroom, machines };

export const es: TextOf<Messages> = { ...appMessages, cli, pdf, labText, labAbout, labShared, exercises };
