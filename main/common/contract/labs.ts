// The labs service: the labs' descriptors in the reader's language, the kernel sources they name, and the check of
// a lab's parameters as the form is filled in.
import { z } from 'zod';

import { LAB_DESCRIPTOR, LAB_IDS, PARAM_VALUES } from '../lab-descriptor.ts';
import { LOCALES } from '../pure/locale.ts';
import { DEVICE_ID } from '../measurement.ts';
import { REFERENCE_RUN } from '../reference-run.ts';
import { arg, method, service } from './spec.ts';
import type { ServiceOf } from './spec.ts';

export const LOCALE_ARGUMENT = arg('locale', z.enum(LOCALES).optional(), 'a language: en or es');

export const KERNEL_SOURCE_TEXT = z.strictObject({
  // The path a lab names in its kernels (shaders/cuda/elementwise.cu, native/cpu/elementwise.cc).
  file: z.string(),
  language: z.enum(['cuda', 'cpp', 'python']),
  text: z.string(),
});
export type KernelSourceText = z.infer<typeof KERNEL_SOURCE_TEXT>;

// A reference result and where it comes from: the table GPU Lab ships, or a file in the data folder's references/
// (a teacher's, written by `gpu-lab runs export ID --reference`).
export const REFERENCE_RESULT = z.strictObject({ origin: z.enum(['shipped', 'data-folder']), reference: REFERENCE_RUN });
export type ReferenceResult = z.infer<typeof REFERENCE_RESULT>;

// The most a lab's run with its defaults takes on a device, in seconds, from its plan's time budgets.
export const LAB_TIME_BOUND = z.strictObject({ lab: z.enum(LAB_IDS), atMostSeconds: z.number().nonnegative() });
export type LabTimeBound = z.infer<typeof LAB_TIME_BOUND>;

export const LABS_CONTRACT = service({
  // In `locale` (English without): the words, and the templates the renderer renders findings with.
  listLabs: method([LOCALE_ARGUMENT], z.array(LAB_DESCRIPTOR)),
  // The source of a file some lab names as a kernel it runs; any other path is NOT_FOUND.
  kernelSource: method([arg('file', z.string().min(1).max(200), 'the path of a kernel source a lab names')], KERNEL_SOURCE_TEXT),
  // The parameters as a run would take them (defaults filled in), or INVALID_PARAMS whose message is the lab
  // schema's own and whose details name the parameter at fault: the form checks as the user types.
  validateParams: method([arg('lab', z.string().min(1).max(64), 'a lab id'), arg('params', PARAM_VALUES, 'an object of parameter name → a number, a text or a list of either')], PARAM_VALUES),
  // Other machines' headline numbers for a lab, per GPU model: shown beside a run as another machine's, never as its own.
  referenceResults: method([arg('lab', z.enum(LAB_IDS), `a lab id: ${LAB_IDS.join(', ')}`)], z.array(REFERENCE_RESULT)),
  // For each lab, the most its run with its defaults takes on `device` (one of this machine's), with the Python
  // peers this machine offers: what the catalog tells of a lab not yet run.
  timeBounds: method([arg('device', DEVICE_ID, 'a device id: "cpu" or "cuda:N"')], z.array(LAB_TIME_BOUND)),
});

export type LabsService = ServiceOf<typeof LABS_CONTRACT>;
