// The CPU operations the timing harness can run, and their translation into the addon's plain spec after every
// argument has been checked.
import { LIMITS } from '../main/common/measurement.ts';
import type { ElementwiseVariant, GemmVariant, Op } from '../main/common/measurement.ts';
import type { RawSpec } from './addon.ts';
import type { ElementBuffer } from './buffers.ts';
import { bufferOperand, gemmShape, sameLength } from './operands.ts';
import { finiteNumber, integerIn, invalid, oneOf } from './validate.ts';

// The CPU's implementations, in the measurement vocabulary's words: a loop on one thread or on all, a GEMM through a
// BLAS or the built-in blocked one.
export const CPU_LOOP_VARIANTS = ['single', 'threads'] as const satisfies readonly ElementwiseVariant[];
export const CPU_GEMM_VARIANTS = ['blas', 'blocked'] as const satisfies readonly GemmVariant[];
export type CpuLoopVariant = (typeof CPU_LOOP_VARIANTS)[number];
export type CpuGemmVariant = (typeof CPU_GEMM_VARIANTS)[number];

interface CpuBase {
  device?: 'cpu';
  // Threads for the `threads` and GEMM variants; default: every logical core.
  threads?: number;
}

export type CpuOpSpec =
  | (CpuBase & { op: 'empty' })
  | (CpuBase & { op: 'add' | 'mul'; variant: CpuLoopVariant; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  | (CpuBase & { op: 'exp'; variant: CpuLoopVariant; x: ElementBuffer; out: ElementBuffer })
  | (CpuBase & {
      op: 'vector-function';
      variant: CpuLoopVariant;
      x: ElementBuffer;
      y: ElementBuffer;
      out: ElementBuffer;
      a: number;
      b: number;
      c: number;
    })
  // `library`: a BLAS opened with openBlas (its id); absent, the system's (blasInfo).
  | (CpuBase & { op: 'gemm'; variant: CpuGemmVariant; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer; m: number; n: number; k: number; library?: number });

export const CPU_OPS = ['empty', 'add', 'mul', 'exp', 'vector-function', 'gemm'] as const satisfies readonly Op[];

function hostBuffer(name: string, value: unknown, dtypes: readonly string[]): ElementBuffer {
  const buf = bufferOperand(name, value, dtypes);
  if (buf.location === 'device') throw invalid(name, 'a host buffer for a CPU operation', 'a device buffer');
  return buf;
}

function threadsOf(spec: { threads?: unknown }): number | undefined {
  if (spec.threads === undefined) return undefined;
  return integerIn('threads', spec.threads, 1, LIMITS.threads, `an integer from 1 to ${LIMITS.threads}`);
}

export function cpuRawSpec(spec: CpuOpSpec, warmup: number, repeats: number): RawSpec {
  const op = oneOf('op', (spec as { op: unknown }).op, CPU_OPS);
  const base = { op, warmup, repeats, device: -1 };
  const threads = threadsOf(spec);
  switch (spec.op) {
    case 'empty':
      return base;
    case 'add':
    case 'mul': {
      const variant = oneOf('variant', spec.variant, CPU_LOOP_VARIANTS);
      const a = hostBuffer('a', spec.a, ['fp32']);
      const b = hostBuffer('b', spec.b, ['fp32']);
      const out = hostBuffer('out', spec.out, ['fp32']);
      sameLength(['a', 'b', 'out'], [a, b, out]);
      return { ...base, variant, threads, buffers: { a: a.raw, b: b.raw, out: out.raw } };
    }
    case 'exp': {
      const variant = oneOf('variant', spec.variant, CPU_LOOP_VARIANTS);
      const x = hostBuffer('x', spec.x, ['fp32']);
      const out = hostBuffer('out', spec.out, ['fp32']);
      sameLength(['x', 'out'], [x, out]);
      return { ...base, variant, threads, buffers: { x: x.raw, out: out.raw } };
    }
    case 'vector-function': {
      const variant = oneOf('variant', spec.variant, CPU_LOOP_VARIANTS);
      const x = hostBuffer('x', spec.x, ['fp64']);
      const y = hostBuffer('y', spec.y, ['fp64']);
      const out = hostBuffer('out', spec.out, ['fp64']);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      const numbers = { a: finiteNumber('a', spec.a), b: finiteNumber('b', spec.b), c: finiteNumber('c', spec.c) };
      return { ...base, variant, threads, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers };
    }
    case 'gemm': {
      const variant = oneOf('variant', spec.variant, CPU_GEMM_VARIANTS);
      const a = hostBuffer('a', spec.a, ['fp32', 'fp64']);
      const b = hostBuffer('b', spec.b, [a.dtype]);
      const out = hostBuffer('out', spec.out, [a.dtype]);
      const { m, n, k } = gemmShape(spec, a, b, out);
      const library = spec.library === undefined ? undefined : integerIn('library', spec.library, 0, 1_000_000, 'the id of a BLAS opened with openBlas');
      return { ...base, variant, threads, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers: { m, n, k, ...(library === undefined ? {} : { library }) } };
    }
  }
}
