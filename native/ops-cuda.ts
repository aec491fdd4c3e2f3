// The CUDA operations the timing harness can run, and their translation into the addon's plain spec after every
// argument has been checked: the device exists in this build, each buffer lives where the operation needs it
// (device memory on that device, or host memory where the copies are timed), dtypes and lengths agree. Every word is
// the measurement vocabulary's (main/common/measurement.ts), passed on to the addon unchanged.
import { BLAS1_ROUTINES, CLOCKS, COPY_MODES, DATA_PATHS, GEMM_DTYPES, LIMITS } from '../main/common/measurement.ts';
import type { Blas1Routine, Clock, CopyMode, DataPath, GemmDtype, GemmVariant, Op, VectorFunctionVariant } from '../main/common/measurement.ts';
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon } from './addon.ts';
import type { RawSpec } from './addon.ts';
import { ElementBuffer } from './buffers.ts';
import { bufferOperand, gemmShape, sameLength } from './operands.ts';
import type { GemmShape } from './operands.ts';
import { INT_MAX, finiteNumber, invalid, oneOf, positiveInteger } from './validate.ts';

export type CudaDevice = `cuda:${number}`;
// The GPU's implementations: the vector function's three passes or one fused kernel; a GEMM through cuBLAS, or the
// hand-written naive and tiled SGEMMs (fp32, resident).
export const CUDA_VECTOR_FUNCTION_VARIANTS = ['unfused', 'fused'] as const satisfies readonly VectorFunctionVariant[];
export const CUDA_GEMM_VARIANTS = ['cublas', 'naive', 'tiled'] as const satisfies readonly GemmVariant[];
export type CudaVectorFunctionVariant = (typeof CUDA_VECTOR_FUNCTION_VARIANTS)[number];

// `clock` (absent: events): events, CUDA events around the work (deviceMs) plus host time after synchronising
// (hostMs); host, the host clock around the work and a synchronisation; host-nosync, the timing-pitfalls mistake, the
// host clock read right after queueing (hostMs) while the events still report the real device time (deviceMs).
interface CudaBase {
  device: CudaDevice;
  clock?: Clock;
}

export type CudaOpSpec =
  | (CudaBase & { op: 'empty' })
  | (CudaBase & { op: 'add' | 'mul'; path: DataPath; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  | (CudaBase & { op: 'exp'; path: DataPath; x: ElementBuffer; out: ElementBuffer })
  // With the copies timed, the fused kernel only.
  | (CudaBase & {
      op: 'vector-function';
      variant: CudaVectorFunctionVariant;
      path: DataPath;
      x: ElementBuffer;
      y: ElementBuffer;
      out: ElementBuffer;
      a: number;
      b: number;
      c: number;
    })
  | (CudaBase & GemmShape & { op: 'gemm'; variant: 'naive' | 'tiled'; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  // cuBLAS: a and b of `dtype` (fp32 for tf32), out of the same (fp32 for int8).
  | (CudaBase & GemmShape & { op: 'gemm'; variant: 'cublas'; dtype: GemmDtype; path: DataPath; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  // The direction follows from where src and dst live; pinned or pageable from the host buffer's kind.
  | (CudaBase & { op: 'copy'; mode: CopyMode; src: ElementBuffer; dst: ElementBuffer })
  // cuBLAS on device-resident fp32 buffers. saxpy: out = a·x + y (cublasSaxpy_v2 works in place; out receives its
  // first execution and x and y stay as they are); sum: out (1 element) = Σ|x| (cublasSasum_v2); transpose:
  // out = inᵀ, both n×n row-major (cublasSgeam).
  | (CudaBase & { op: 'blas1'; routine: 'saxpy'; x: ElementBuffer; y: ElementBuffer; out: ElementBuffer; a: number })
  | (CudaBase & { op: 'blas1'; routine: 'sum'; x: ElementBuffer; out: ElementBuffer })
  | (CudaBase & { op: 'blas1'; routine: 'transpose'; in: ElementBuffer; out: ElementBuffer; n: number });

export const CUDA_OPS = ['empty', 'add', 'mul', 'exp', 'vector-function', 'gemm', 'copy', 'blas1'] as const satisfies readonly Op[];
// The largest n whose n×n matrix has at most 2³¹ − 1 elements, the count cuBLAS's transpose and every kernel index.
const MAX_TRANSPOSE_ORDER = Math.floor(Math.sqrt(INT_MAX));
// A grid holds at most 65535 blocks along y (2³¹ − 1 along x). The hand-written GEMMs run the rows of C along y
// (shaders/cuda/sgemm.cu), the int8 GEMM's transpose of B runs k along y (shaders/cuda/transpose.cu).
const GRID_Y_BLOCKS = 65535;
const GRID_Y_LIMITS = {
  naive: { name: 'm', rowsPerBlock: 8, kernel: 'the naive SGEMM' },
  tiled: { name: 'm', rowsPerBlock: 128, kernel: 'the tiled SGEMM' },
  int8: { name: 'k', rowsPerBlock: 32, kernel: "the int8 GEMM's transpose of B" },
} as const;

// The ordinal of "cuda:N".
function parseCudaDevice(device: unknown): number {
  if (typeof device !== 'string' || !/^cuda:\d{1,3}$/.test(device)) throw invalid('device', '"cuda:N"', device);
  return Number(device.slice(5));
}

function requireCudaBuild(device: string): void {
  const build = loadAddon().buildInfo();
  if (!build.cuda) throw new GpuLabError('CUDA_UNAVAILABLE', `CUDA is not available (${device}): ${build.cudaReason ?? 'built without CUDA'}`);
}

// The ordinal of "cuda:N", after checking that this build has CUDA at all.
export function cudaOrdinal(device: unknown): number {
  const ordinal = parseCudaDevice(device);
  requireCudaBuild(device as string);
  return ordinal;
}

const buffer = bufferOperand;

function onDevice(name: string, buf: ElementBuffer, ordinal: number): ElementBuffer {
  if (buf.location !== 'device' || buf.device !== ordinal) {
    const where = buf.location === 'device' ? `device memory on cuda:${buf.device}` : buf.location === 'pinned' ? 'pinned host memory' : 'pageable host memory';
    throw invalid(name, `device memory on cuda:${ordinal}`, where);
  }
  return buf;
}

function deviceBuffer(name: string, value: unknown, dtypes: readonly string[], ordinal: number): ElementBuffer {
  return onDevice(name, buffer(name, value, dtypes), ordinal);
}

function hostBuffer(name: string, value: unknown, dtypes: readonly string[]): ElementBuffer {
  const buf = buffer(name, value, dtypes);
  if (buf.location === 'device') throw invalid(name, 'host or pinned memory where the copies are timed (path with-copies)', 'device memory');
  return buf;
}

function operand(path: DataPath, ordinal: number) {
  return (name: string, value: unknown, dtypes: readonly string[]): ElementBuffer =>
    path === 'with-copies' ? hostBuffer(name, value, dtypes) : deviceBuffer(name, value, dtypes, ordinal);
}

const pathOf = (spec: { path?: unknown }): DataPath => oneOf('path', spec.path, DATA_PATHS);

// Refuses a GEMM shape past cuBLAS's int dimensions or past the 65535 blocks a grid holds along y (m > 524,280 for
// the naive SGEMM, say), before any CUDA call: the same SIZE_UNSUPPORTED with or without a device.
function checkGemmShape(spec: Partial<GemmShape> & { variant?: unknown; a?: unknown }): void {
  for (const name of ['m', 'n', 'k'] as const) positiveInteger(name, spec[name], INT_MAX);
  const int8 = spec.variant === 'cublas' && spec.a instanceof ElementBuffer && spec.a.dtype === 'int8';
  const key = spec.variant === 'naive' || spec.variant === 'tiled' ? spec.variant : int8 ? 'int8' : null;
  if (key === null) return;
  const { name, rowsPerBlock, kernel } = GRID_Y_LIMITS[key];
  const value = spec[name] ?? 0;
  const limit = GRID_Y_BLOCKS * rowsPerBlock;
  if (value > limit) {
    throw new GpuLabError(
      'SIZE_UNSUPPORTED',
      `Expected at most ${limit} for \`${name}\` of gemm but received ${value}: ${kernel} puts ${rowsPerBlock} rows of ${name} in each block along the grid's y dimension, which holds at most ${GRID_Y_BLOCKS} blocks`,
      { argument: name, limit },
    );
  }
}

// Every argument is checked before whether this build has CUDA: a wrong argument is named the same way in every
// build.
export function cudaRawSpec(spec: CudaOpSpec, warmup: number, repeats: number): RawSpec {
  const op = oneOf('op', (spec as { op: unknown }).op, CUDA_OPS);
  if (op === 'gemm') {
    oneOf('variant', (spec as { variant?: unknown }).variant, CUDA_GEMM_VARIANTS);
    checkGemmShape(spec as Partial<GemmShape> & { variant?: unknown; a?: unknown });
  }
  const raw = checkedRawSpec(spec, op, parseCudaDevice(spec.device), warmup, repeats);
  requireCudaBuild(spec.device);
  return raw;
}

function checkedRawSpec(spec: CudaOpSpec, op: (typeof CUDA_OPS)[number], ordinal: number, warmup: number, repeats: number): RawSpec {
  const clock = spec.clock === undefined ? 'events' : oneOf('clock', spec.clock, CLOCKS);
  const base = { op, warmup, repeats, device: ordinal, clock };
  switch (spec.op) {
    case 'empty':
      return base;
    case 'add':
    case 'mul': {
      const path = pathOf(spec);
      const take = operand(path, ordinal);
      const a = take('a', spec.a, ['fp32']);
      const b = take('b', spec.b, ['fp32']);
      const out = take('out', spec.out, ['fp32']);
      sameLength(['a', 'b', 'out'], [a, b, out]);
      return { ...base, path, buffers: { a: a.raw, b: b.raw, out: out.raw } };
    }
    case 'exp': {
      const path = pathOf(spec);
      const take = operand(path, ordinal);
      const x = take('x', spec.x, ['fp32']);
      const out = take('out', spec.out, ['fp32']);
      sameLength(['x', 'out'], [x, out]);
      return { ...base, path, buffers: { x: x.raw, out: out.raw } };
    }
    case 'vector-function': {
      const variant = oneOf('variant', spec.variant, CUDA_VECTOR_FUNCTION_VARIANTS);
      const path = pathOf(spec);
      if (path === 'with-copies' && variant !== 'fused') throw invalid('variant', 'fused where the copies are timed (path with-copies)', variant);
      const take = operand(path, ordinal);
      const x = take('x', spec.x, ['fp64']);
      const y = take('y', spec.y, ['fp64']);
      const out = take('out', spec.out, ['fp64']);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      const numbers = { a: finiteNumber('a', spec.a), b: finiteNumber('b', spec.b), c: finiteNumber('c', spec.c) };
      return { ...base, variant, path, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers };
    }
    case 'gemm': {
      if (spec.variant !== 'cublas') {
        const a = deviceBuffer('a', spec.a, ['fp32'], ordinal);
        const b = deviceBuffer('b', spec.b, ['fp32'], ordinal);
        const out = deviceBuffer('out', spec.out, ['fp32'], ordinal);
        const numbers = { ...gemmShape(spec, a, b, out) };
        return { ...base, variant: spec.variant, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers };
      }
      const dtype = oneOf('dtype', spec.dtype, GEMM_DTYPES);
      const path = pathOf(spec);
      const take = operand(path, ordinal);
      // tf32 is fp32 in memory; int8 products sum into fp32.
      const stored = dtype === 'tf32' ? 'fp32' : dtype;
      const a = take('a', spec.a, [stored]);
      const b = take('b', spec.b, [stored]);
      const out = take('out', spec.out, [stored === 'int8' ? 'fp32' : stored]);
      const numbers = { ...gemmShape(spec, a, b, out) };
      return { ...base, variant: spec.variant, dtype, path, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers };
    }
    case 'blas1':
      return { ...base, ...blas1RawSpec(spec, ordinal) };
    case 'copy': {
      const mode = oneOf('mode', spec.mode, COPY_MODES);
      const any = ['fp64', 'fp32', 'fp16', 'bf16', 'int8'];
      const src = buffer('src', spec.src, any);
      const dst = buffer('dst', spec.dst, any);
      if (src.location !== 'device' && dst.location !== 'device') throw invalid('dst', 'device memory when `src` is host memory', `${dst.location} host memory`);
      for (const [name, buf] of [['src', src], ['dst', dst]] as const) {
        if (buf.location === 'device' && buf.device !== ordinal) throw invalid(name, `device memory on cuda:${ordinal}`, `device memory on cuda:${buf.device}`);
      }
      if (src.byteLength !== dst.byteLength) {
        throw new GpuLabError('LENGTH_MISMATCH', `Expected \`dst\` to hold the ${src.byteLength} bytes of \`src\` but it holds ${dst.byteLength}`, { argument: 'dst' });
      }
      return { ...base, mode, buffers: { src: src.raw, dst: dst.raw } };
    }
  }
}

function elementsFor(name: string, buf: ElementBuffer): void {
  if (buf.length > INT_MAX) {
    throw new GpuLabError('SIZE_UNSUPPORTED', `Expected at most ${INT_MAX} elements in \`${name}\` of blas1 but it holds ${buf.length}: cuBLAS counts them in int`, {
      argument: name,
      limit: INT_MAX,
    });
  }
}

function lengthIs(name: string, buf: ElementBuffer, want: number, formula: string): void {
  if (buf.length !== want) throw new GpuLabError('LENGTH_MISMATCH', `Expected \`${name}\` to hold ${formula} = ${want} elements but it holds ${buf.length}`, { argument: name });
}

// The routine, its numbers, the buffers' dtypes and lengths, then where they live: every mistake that needs no
// device is named the same on a machine without one.
function blas1RawSpec(spec: Extract<CudaOpSpec, { op: 'blas1' }>, ordinal: number): Pick<RawSpec, 'routine' | 'buffers' | 'numbers'> {
  oneOf('routine', spec.routine, BLAS1_ROUTINES satisfies readonly Blas1Routine[]);
  const fp32 = ['fp32'];
  switch (spec.routine) {
    case 'saxpy': {
      const a = finiteNumber('a', spec.a);
      if (Math.abs(a) > LIMITS.fp32) throw invalid('a', `a number within the fp32 range (|a| ≤ ${LIMITS.fp32})`, a);
      const x = buffer('x', spec.x, fp32);
      const y = buffer('y', spec.y, fp32);
      const out = buffer('out', spec.out, fp32);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      elementsFor('x', x);
      for (const [name, buf] of [['x', x], ['y', y], ['out', out]] as const) onDevice(name, buf, ordinal);
      return { routine: spec.routine, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers: { a } };
    }
    case 'sum': {
      const x = buffer('x', spec.x, fp32);
      const out = buffer('out', spec.out, fp32);
      lengthIs('out', out, 1, 'one total');
      elementsFor('x', x);
      onDevice('x', x, ordinal);
      onDevice('out', out, ordinal);
      return { routine: spec.routine, buffers: { x: x.raw, out: out.raw } };
    }
    case 'transpose': {
      const n = positiveInteger('n', spec.n, MAX_TRANSPOSE_ORDER);
      const input = buffer('in', spec.in, fp32);
      const out = buffer('out', spec.out, fp32);
      lengthIs('in', input, n * n, 'n·n');
      lengthIs('out', out, n * n, 'n·n');
      if (input.raw === out.raw) {
        throw new GpuLabError('INVALID_ARGUMENT', 'Expected `out` to be another buffer than `in`: cublasSgeam cannot transpose in place', { argument: 'out' });
      }
      onDevice('in', input, ordinal);
      onDevice('out', out, ordinal);
      return { routine: spec.routine, buffers: { in: input.raw, out: out.raw }, numbers: { n } };
    }
  }
}
