// The playground's exercises as data: each one's fixed signature, problem size, the work one launch does (for GB/s
// or GFLOP/s), the kernels that come with it, and the engine's built-in measurements of the same work. The words
// (titles, statements, hints) are in text/; this file holds no sentence a student reads. How a kernel is launched is
// said by its file, in its launch header (launch-header.ts): each is a student's file as it stands, its kernel named
// as the exercise's.
import type { Dim3, ExerciseId, KernelParam } from './playground.ts';
import { LIMITS } from './measurement.ts';
import type { MeasurementInput } from './measurement.ts';
import { gridFor } from './pure/launch-header.ts';

export interface KernelDefinition {
  id: string;
  kind: 'starter' | 'reference';
  // From the repository root.
  file: string;
}

export interface BuiltinDefinition {
  id: string;
  kind: 'builtin' | 'cublas';
  measurement(size: number, device: `cuda:${number}`): MeasurementInput;
}

export interface ExerciseDefinition {
  id: ExerciseId;
  entry: string;
  params: KernelParam[];
  size: { name: 'n' | 'N'; default: number; min: number; max: number };
  cover: '1d' | '2d';
  defaultBlock: Dim3;
  elementType: 'fp32' | 'fp64';
  metric: 'GB/s' | 'GFLOP/s';
  // Bytes moved (GB/s exercises) or floating-point operations (GFLOP/s) by one launch.
  work(size: number): number;
  // Elements of the output, and its rows × cols where it is a matrix.
  outputShape(size: number): { length: number; rows: number | null; cols: number | null };
  kernels: KernelDefinition[];
  builtins: BuiltinDefinition[];
  // A kernel still running after this long is stopped (with its compute host).
  watchdogMs: number;
  // Unit 10's exercises (the elementwise pair and the matrix product): a run that compares also launches the kernel
  // from Python, as the course does (host/kernel-python.ts).
  fromPython?: true;
}

// The grid that gives one thread per element of the output with this block.
export function coverGrid(exercise: ExerciseDefinition, size: number, block: Dim3): Dim3 {
  return gridFor({ kind: 'cover' }, exercise.cover, size, block);
}

const POLYNOMIAL = { a: 3.5, b: 2.8, c: 10 } as const;
export const SAXPY_A = 2.5;
export { POLYNOMIAL };

function polynomial(dtype: 'fp32' | 'fp64'): ExerciseDefinition {
  const t = dtype === 'fp32' ? 'float' : 'double';
  const bytes = dtype === 'fp32' ? 4 : 8;
  const id = dtype === 'fp32' ? 'polynomial-fp32' : 'polynomial-fp64';
  const starter: KernelDefinition = { id: 'starter', kind: 'starter', file: `shaders/playground/${dtype === 'fp32' ? 'polynomial_fp32' : 'polynomial_fp64'}.starter.cu` };
  const reference: KernelDefinition =
    dtype === 'fp32'
      ? { id: 'float4', kind: 'reference', file: 'shaders/playground/polynomial_fp32.reference.cu' }
      : // The vector-function lab's own fused kernel, one thread per pair of elements.
        { id: 'builtin-fused', kind: 'reference', file: 'shaders/cuda/vector_function_fused.cuh' };
  return {
    id,
    entry: 'polynomial',
    params: [
      { name: 'x', role: 'input', ctype: `const ${t}*` },
      { name: 'y', role: 'input', ctype: `const ${t}*` },
      { name: 'z', role: 'output', ctype: `${t}*` },
      { name: 'a', role: 'scalar', ctype: t },
      { name: 'b', role: 'scalar', ctype: t },
      { name: 'c', role: 'scalar', ctype: t },
      { name: 'n', role: 'scalar', ctype: 'size_t' },
    ],
    size: { name: 'n', default: 5_000_000, min: 1, max: 1 << 28 },
    cover: '1d',
    defaultBlock: [256, 1, 1],
    elementType: dtype,
    metric: 'GB/s',
    // x and y read, z written.
    work: (n) => 3 * bytes * n,
    outputShape: (n) => ({ length: n, rows: null, cols: null }),
    kernels: [starter, reference],
    builtins:
      dtype === 'fp64'
        ? [
            { id: 'vector-function-fused', kind: 'builtin', measurement: (n, device) => ({ op: 'vector-function', variant: 'fused', elements: n, ...POLYNOMIAL, device, warmup: 3, repeats: 20, seed: 7 }) },
            { id: 'vector-function-unfused', kind: 'builtin', measurement: (n, device) => ({ op: 'vector-function', variant: 'unfused', elements: n, ...POLYNOMIAL, device, warmup: 3, repeats: 20, seed: 7 }) },
          ]
        : [],
    watchdogMs: 5000,
  };
}

const saxpy: ExerciseDefinition = {
  id: 'saxpy',
  entry: 'saxpy',
  params: [
    { name: 'x', role: 'input', ctype: 'const float*' },
    { name: 'y', role: 'input', ctype: 'const float*' },
    { name: 'out', role: 'output', ctype: 'float*' },
    { name: 'a', role: 'scalar', ctype: 'float' },
    { name: 'n', role: 'scalar', ctype: 'size_t' },
  ],
  size: { name: 'n', default: 1 << 24, min: 1, max: 1 << 28 },
  cover: '1d',
  defaultBlock: [256, 1, 1],
  elementType: 'fp32',
  metric: 'GB/s',
  work: (n) => 12 * n,
  outputShape: (n) => ({ length: n, rows: null, cols: null }),
  kernels: [
    { id: 'starter', kind: 'starter', file: 'shaders/playground/saxpy.starter.cu' },
    { id: 'grid-stride-float4', kind: 'reference', file: 'shaders/playground/saxpy.reference.cu' },
  ],
  // In place (y ← a·x + y): the same 12 bytes per element as the exercise.
  builtins: [{ id: 'cublas', kind: 'cublas', measurement: (n, device) => ({ op: 'blas1', routine: 'saxpy', elements: n, a: SAXPY_A, device, warmup: 3, repeats: 20, seed: 7 }) }],
  watchdogMs: 5000,
};

// The sum's inputs are whole numbers 0…3, so every order of addition gives the same exact float: a difference from
// the reference is a bug, never rounding. 2²³ elements sum to about 1.26·10⁷, below 2²⁴, where floats stop
// holding every integer.
const reduction: ExerciseDefinition = {
  id: 'reduction',
  entry: 'sum',
  params: [
    { name: 'x', role: 'input', ctype: 'const float*' },
    { name: 'total', role: 'output', ctype: 'float*' },
    { name: 'n', role: 'scalar', ctype: 'size_t' },
  ],
  size: { name: 'n', default: 1 << 23, min: 1, max: 1 << 23 },
  cover: '1d',
  defaultBlock: [256, 1, 1],
  elementType: 'fp32',
  metric: 'GB/s',
  work: (n) => 4 * n,
  outputShape: () => ({ length: 1, rows: null, cols: null }),
  kernels: [
    { id: 'starter', kind: 'starter', file: 'shaders/playground/reduction.starter.cu' },
    { id: 'warp-shuffle', kind: 'reference', file: 'shaders/playground/reduction.reference.cu' },
  ],
  // cublasSasum_v2, the sum of |x|: the sum itself over these non-negative inputs.
  builtins: [{ id: 'cublas', kind: 'cublas', measurement: (n, device) => ({ op: 'blas1', routine: 'sum', elements: n, device, warmup: 3, repeats: 20, seed: 7 }) }],
  watchdogMs: 5000,
};

const transpose: ExerciseDefinition = {
  id: 'transpose',
  entry: 'transpose',
  params: [
    { name: 'in', role: 'input', ctype: 'const float*' },
    { name: 'out', role: 'output', ctype: 'float*' },
    { name: 'rows', role: 'scalar', ctype: 'int' },
    { name: 'cols', role: 'scalar', ctype: 'int' },
  ],
  size: { name: 'N', default: 4096, min: 1, max: LIMITS.matrixOrder },
  cover: '2d',
  defaultBlock: [16, 16, 1],
  elementType: 'fp32',
  metric: 'GB/s',
  work: (n) => 8 * n * n,
  outputShape: (n) => ({ length: n * n, rows: n, cols: n }),
  kernels: [
    { id: 'starter', kind: 'starter', file: 'shaders/playground/transpose.starter.cu' },
    // The int8 GEMM's own transpose tile, called on floats.
    { id: 'builtin-tiled', kind: 'reference', file: 'shaders/cuda/transpose_tile.cuh' },
  ],
  builtins: [{ id: 'cublas', kind: 'cublas', measurement: (n, device) => ({ op: 'blas1', routine: 'transpose', n, device, warmup: 3, repeats: 20, seed: 7 }) }],
  watchdogMs: 5000,
};

const gemm = (variant: 'naive' | 'tiled' | 'cublas', n: number, device: `cuda:${number}`): MeasurementInput => ({
  op: 'gemm',
  dtype: 'fp32',
  variant,
  m: n,
  n,
  k: n,
  device,
  warmup: 2,
  repeats: 10,
  seed: 7,
});

const sgemm: ExerciseDefinition = {
  id: 'sgemm',
  entry: 'sgemm',
  params: [
    { name: 'a', role: 'input', ctype: 'const float*' },
    { name: 'b', role: 'input', ctype: 'const float*' },
    { name: 'c', role: 'output', ctype: 'float*' },
    { name: 'm', role: 'scalar', ctype: 'int' },
    { name: 'n', role: 'scalar', ctype: 'int' },
    { name: 'k', role: 'scalar', ctype: 'int' },
  ],
  size: { name: 'N', default: 4096, min: 1, max: LIMITS.matrixOrder },
  cover: '2d',
  defaultBlock: [16, 16, 1],
  elementType: 'fp32',
  metric: 'GFLOP/s',
  // One multiply and one add per term, N terms per element of C.
  work: (n) => 2 * n * n * n,
  outputShape: (n) => ({ length: n * n, rows: n, cols: n }),
  kernels: [
    { id: 'starter', kind: 'starter', file: 'shaders/playground/sgemm.starter.cu' },
    { id: 'shared-tiles', kind: 'reference', file: 'shaders/playground/sgemm.shared.cu' },
    // The matmul labs' own tiled kernel.
    { id: 'builtin-tiled', kind: 'reference', file: 'shaders/cuda/sgemm_tiled.cuh' },
  ],
  builtins: [
    { id: 'gemm-tiled', kind: 'builtin', measurement: (n, device) => gemm('tiled', n, device) },
    { id: 'cublas', kind: 'cublas', measurement: (n, device) => gemm('cublas', n, device) },
  ],
  watchdogMs: 10_000,
  // Unit 10's second notebook (PyCUDA_multiplicar_matrices).
  fromPython: true,
};

// Unit 10's first notebook (PyCUDA_multiplicar_sumar_elementos): two kernels, dest = a·b and dest = a + b, each an
// exercise of its own with the notebook's argument order (the output first) and the element count added. The
// engine's own elementwise kernel of the same operation is measured beside them.
function elementwise(op: 'multiply' | 'add'): ExerciseDefinition {
  return {
    id: op,
    entry: op === 'multiply' ? 'multiply_them' : 'add_them',
    params: [
      { name: 'dest', role: 'output', ctype: 'float*' },
      { name: 'a', role: 'input', ctype: 'const float*' },
      { name: 'b', role: 'input', ctype: 'const float*' },
      { name: 'n', role: 'scalar', ctype: 'size_t' },
    ],
    size: { name: 'n', default: 1 << 24, min: 1, max: 1 << 28 },
    cover: '1d',
    defaultBlock: [256, 1, 1],
    elementType: 'fp32',
    metric: 'GB/s',
    // a and b read, dest written.
    work: (n) => 12 * n,
    outputShape: (n) => ({ length: n, rows: null, cols: null }),
    kernels: [
      { id: 'starter', kind: 'starter', file: `shaders/playground/${op}.starter.cu` },
      { id: 'grid-stride-float4', kind: 'reference', file: `shaders/playground/${op}.reference.cu` },
    ],
    builtins: [
      {
        id: 'elementwise',
        kind: 'builtin',
        measurement: (n, device) => ({ op: op === 'multiply' ? 'mul' : 'add', variant: 'kernel', path: 'resident', elements: n, device, warmup: 3, repeats: 20, seed: 7 }),
      },
    ],
    watchdogMs: 5000,
    fromPython: true,
  };
}

export const EXERCISES: readonly ExerciseDefinition[] = [polynomial('fp32'), polynomial('fp64'), saxpy, reduction, transpose, sgemm, elementwise('multiply'), elementwise('add')];

export function exerciseDefinition(id: ExerciseId): ExerciseDefinition {
  const found = EXERCISES.find((e) => e.id === id);
  if (!found) throw new Error(`no exercise ${id}`);
  return found;
}

// The signature as C, for the statement and for the compile-time check of the student's kernel.
export function signatureOf(exercise: Pick<ExerciseDefinition, 'entry' | 'params'>): string {
  return `__global__ void ${exercise.entry}(${exercise.params.map((p) => `${p.ctype} ${p.name}`).join(', ')})`;
}
