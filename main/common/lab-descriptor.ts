// How a lab describes itself to the UI, the CLI and the report: what it teaches, its parameters with their limits
// and units, the kernels it runs and the series of its chart. Schemas first: labs.listLabs answers these, and the
// types are theirs.
import { PEER_LIBRARIES } from './peer-protocol.ts';
import { z } from 'zod';

import { LOCALES } from './pure/locale.ts';

export const LAB_IDS = [
  'transfer',
  'dtypes',
  'matmul',
  'vector-function',
  'elementwise-breakeven',
  'matmul-breakeven',
  'timing-pitfalls',
  'text-to-image',
] as const;

export type LabId = (typeof LAB_IDS)[number];

const PARAMETER_BASE = {
  name: z.string(),
  label: z.string(),
  description: z.string(),
  // The unit shown beside the value ("elements", "bytes", "samples"); '' for plain numbers.
  unit: z.string(),
  // The English unit where `unit` is a translation ("elementos"): what code that reads the value goes by.
  unitId: z.string().optional(),
  // The unit beside a count of one, where it differs ("run" beside "1", "runs" beside "2"): see unitFor in format.ts.
  unitOne: z.string().optional(),
};

// A number that must not be below another parameter of the same lab (a largest size against a smallest): checked
// with the others when the parameters are validated, so that an empty range is refused, not run as zero points.
const NUMBER_BOUNDS = {
  default: z.number(),
  min: z.number(),
  max: z.number(),
  atLeast: z.string().optional(),
};

export const PARAMETER_DESCRIPTOR = z.discriminatedUnion('kind', [
  z.strictObject({ ...PARAMETER_BASE, ...NUMBER_BOUNDS, kind: z.literal('integer') }),
  z.strictObject({ ...PARAMETER_BASE, ...NUMBER_BOUNDS, kind: z.literal('number') }),
  z.strictObject({ ...PARAMETER_BASE, kind: z.literal('choice'), default: z.string(), choices: z.array(z.string()) }),
  z.strictObject({ ...PARAMETER_BASE, kind: z.literal('integer-list'), default: z.array(z.number()), min: z.number(), max: z.number(), maxItems: z.number() }),
  z.strictObject({ ...PARAMETER_BASE, kind: z.literal('choice-list'), default: z.array(z.string()), choices: z.array(z.string()) }),
]);
export type ParameterDescriptor = z.infer<typeof PARAMETER_DESCRIPTOR>;

// A parameter's value as a run takes it, before its lab checks it against its descriptor.
export const PARAM_VALUE = z.union([z.number(), z.string(), z.array(z.number()), z.array(z.string())]);
export type ParamValue = z.infer<typeof PARAM_VALUE>;
export const PARAM_VALUES = z.record(z.string(), PARAM_VALUE);
export type ParamValues = z.infer<typeof PARAM_VALUES>;

export const KERNEL_SOURCE = z.strictObject({
  // 'cuda': a kernel family under shaders/cuda/; 'cpu': a loop of the native addon; 'python': the course's own code
  // a Python peer series runs (python/gpu_lab_peers/labs/); 'wgsl': a WebGPU kernel under shaders/wgsl/.
  kind: z.enum(['cuda', 'cpu', 'library', 'python', 'wgsl']),
  // Repository path of the source shown in the UI, or the library's name (cuBLAS, OpenBLAS).
  file: z.string(),
  // Kernels or functions of that file the lab runs.
  functions: z.array(z.string()),
  // For a library: the app's own code that runs where the system lacks the library (native/cpu/gemm.cc's blocked
  // GEMM where there is no BLAS).
  fallback: z.string().optional(),
});
export type KernelSource = z.infer<typeof KERNEL_SOURCE>;

export const SERIES_DESCRIPTOR = z.strictObject({
  key: z.string(),
  label: z.string(),
  deviceKind: z.enum(['cpu', 'cuda']),
  // The series this one's speedup is read against: a point is compared with the baseline's point of the same key
  // suffix (the same size "@1000000", the same type "-fp32", or the series' only point).
  baseline: z.string().optional(),
  // A Python peer's series: the course's own code in this library, timed beside the engine's and drawn apart.
  peer: z.enum(PEER_LIBRARIES).optional(),
  // A Python series the course material does not have (Numba's parallel loop, cupy.fuse, a GEMM per dtype): GPU Lab's
  // addition in that library, never called the course's code.
  addition: z.literal(true).optional(),
  // The family it belongs to, by name (without one, a family of its own): a family is drawn in one hue, a transfer's
  // direction, the wrong and the right timing of one pitfall, an engine's series and the course's code doing the same.
  family: z.string().optional(),
  // Its shade within the family: pinned memory deeper than pageable; the wrong timing paler than the right one.
  tone: z.enum(['pale', 'deep']).optional(),
  // The panel it is drawn in, where a chart is small multiples (the elementwise lab: one panel per operation, on the
  // same axes).
  panel: z.string().optional(),
  // A series a lab plans on a WebGPU adapter only, in place of a CUDA one WebGPU cannot run (matmul's tiled kernel
  // with the copies, where CUDA times cuBLAS's): not one of the lab's series anywhere else.
  webgpuOnly: z.literal(true).optional(),
  // Its name inside its panel, which names the rest ("GPU with transfers" in the panel of add): the legend's words.
  inPanel: z.string().optional(),
});
export type SeriesDescriptor = z.infer<typeof SERIES_DESCRIPTOR>;

export const CHART_DESCRIPTOR = z.strictObject({
  // What the x axis holds: a size (log scale) or one category per series.
  x: z.strictObject({ quantity: z.enum(['bytes', 'elements', 'matrix-n', 'category']), log: z.boolean() }),
  // The value axis is logarithmic or linear by the lab's choice, never by the values a run happened to measure: a
  // lab's chart keeps its scale from one run to the next.
  y: z.strictObject({ quantity: z.enum(['GB/s', 'GFLOP/s', 'ms', 'speedup', 'TFLOP/s']), log: z.boolean() }),
});
export type ChartDescriptor = z.infer<typeof CHART_DESCRIPTOR>;

// A named set of parameter values: the course material's own settings, or a quicker or larger variant of them.
export const LAB_PRESET = z.strictObject({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  // Values that differ from the defaults; the rest keep theirs.
  params: PARAM_VALUES,
});
export type LabPreset = z.infer<typeof LAB_PRESET>;

export const LAB_DESCRIPTOR = z.strictObject({
  id: z.enum(LAB_IDS),
  title: z.string(),
  summary: z.string(),
  // What the lab shows, as a teacher would say it: one string per paragraph.
  explanation: z.array(z.string()),
  lookFor: z.array(z.string()),
  parameters: z.array(PARAMETER_DESCRIPTOR),
  presets: z.array(LAB_PRESET),
  kernels: z.array(KERNEL_SOURCE),
  series: z.array(SERIES_DESCRIPTOR),
  chart: CHART_DESCRIPTOR,
  // The findings a student reads first, by id, most telling first: a run's headline is the first of these it has
  // (a CPU-only run has no GPU speedup to lead with), else its first finding that is about the lab, not the run.
  headline: z.array(z.string()),
  // The templates of the lab's findings in the descriptor's language, by message id ("matmul-breakeven.findings.…",
  // "common.…"): a finding recorded as a message (message.ts) is rendered with them. listLabs fills it.
  messages: z.record(z.string(), z.string()).optional(),
  // The language of its words and templates; English without.
  locale: z.enum(LOCALES).optional(),
});
export type LabDescriptor = z.infer<typeof LAB_DESCRIPTOR>;
