// How a lab describes itself to the UI, the CLI and the report: what it teaches, its parameters with their limits
// and units, the kernels it runs and the series of its chart.

export const LAB_IDS = [
  'transfer',
  'dtypes',
  'matmul',
  'vector-function',
  'elementwise-breakeven',
  'matmul-breakeven',
  'timing-pitfalls',
] as const;

export type LabId = (typeof LAB_IDS)[number];

interface ParameterBase {
  name: string;
  label: string;
  description: string;
  // The unit shown beside the value ("elements", "bytes", "samples"); '' for plain numbers.
  unit: string;
  // The English unit where `unit` is a translation ("elementos"): what code that reads the value goes by.
  unitId?: string;
  // The unit beside a count of one, where it differs ("run" beside "1", "runs" beside "2"): see unitFor in format.ts.
  unitOne?: string;
}

// A number that must not be below another parameter of the same lab (a largest size against a smallest): checked
// with the others when the parameters are validated, so that an empty range is refused, not run as zero points.
interface NumberBounds {
  default: number;
  min: number;
  max: number;
  atLeast?: string;
}

export type ParameterDescriptor =
  | (ParameterBase & NumberBounds & { kind: 'integer' })
  | (ParameterBase & NumberBounds & { kind: 'number' })
  | (ParameterBase & { kind: 'choice'; default: string; choices: string[] })
  | (ParameterBase & { kind: 'integer-list'; default: number[]; min: number; max: number; maxItems: number })
  | (ParameterBase & { kind: 'choice-list'; default: string[]; choices: string[] });

export type ParamValue = number | string | number[] | string[];
export type ParamValues = Record<string, ParamValue>;

export interface KernelSource {
  // 'cuda': a kernel family under shaders/cuda/; 'cpu': a loop of the native addon.
  kind: 'cuda' | 'cpu' | 'library';
  // Repository path of the source shown in the UI, or the library's name (cuBLAS, OpenBLAS).
  file: string;
  // Kernels or functions of that file the lab runs.
  functions: string[];
}

export interface SeriesDescriptor {
  key: string;
  label: string;
  deviceKind: 'cpu' | 'cuda';
  // The series this one's speedup is read against: a point is compared with the baseline's point of the same key
  // suffix (the same size "@1000000", the same type "-fp32", or the series' only point).
  baseline?: string;
}

export interface ChartDescriptor {
  // What the x axis holds: a size (log scale) or one category per series.
  x: { quantity: 'bytes' | 'elements' | 'matrix-n' | 'category'; log: boolean };
  y: { quantity: 'GB/s' | 'GFLOP/s' | 'ms' | 'speedup' | 'TFLOP/s' };
}

// A named set of parameter values: the course material's own settings, or a quicker or larger variant of them.
export interface LabPreset {
  id: string;
  label: string;
  description: string;
  // Values that differ from the defaults; the rest keep theirs.
  params: ParamValues;
}

export interface LabDescriptor {
  id: LabId;
  title: string;
  summary: string;
  // What the lab shows, as a teacher would say it: one string per paragraph.
  explanation: string[];
  lookFor: string[];
  parameters: ParameterDescriptor[];
  presets: LabPreset[];
  kernels: KernelSource[];
  series: SeriesDescriptor[];
  chart: ChartDescriptor;
  // The templates of the lab's findings in the descriptor's language, by message id ("matmul-breakeven.findings.…",
  // "common.…"): a finding recorded as a message (message.ts) is rendered with them. listLabs fills it.
  messages?: Record<string, string>;
}
