// The CPU operations the timing harness can run, and their translation into the addon's plain spec after every
// argument has been checked.
import { GpuLabError } from '../main/common/errors.ts';
import type { RawSpec } from './addon.ts';
import { ElementBuffer } from './buffers.ts';
import { finiteNumber, integerIn, invalid, oneOf, positiveInteger } from './validate.ts';

export type CpuLoopVariant = 'single' | 'threads';
export type CpuGemmVariant = 'blas' | 'blocked';

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
  | (CpuBase & { op: 'gemm'; variant: CpuGemmVariant; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer; m: number; n: number; k: number });

export const CPU_OPS = ['empty', 'add', 'mul', 'exp', 'vector-function', 'gemm'] as const;
const MAX_THREADS = 256;
// BLAS takes 32-bit int dimensions.
const MAX_DIM = 2147483647;

function hostBuffer(name: string, value: unknown, dtypes: readonly string[]): ElementBuffer {
  if (!(value instanceof ElementBuffer)) throw invalid(name, `a ${dtypes.join(' or ')} buffer`, value);
  const buf = value;
  buf.live(name);
  if (!dtypes.includes(buf.dtype)) throw invalid(name, `a ${dtypes.join(' or ')} buffer`, `a ${buf.dtype} buffer`, 'DTYPE_MISMATCH');
  if (buf.location === 'device') throw invalid(name, 'a host buffer for a CPU operation', 'a device buffer');
  return buf;
}

function sameLength(names: string[], bufs: ElementBuffer[]): void {
  const [first] = bufs;
  if (!first) return;
  bufs.forEach((b, i) => {
    if (b.length !== first.length) {
      throw new GpuLabError(
        'LENGTH_MISMATCH',
        `Expected \`${names[i]}\` to have the ${first.length} elements of \`${names[0]}\` but it has ${b.length}`,
        { argument: names[i] },
      );
    }
  });
}

function threadsOf(spec: { threads?: unknown }): number | undefined {
  if (spec.threads === undefined) return undefined;
  return integerIn('threads', spec.threads, 1, MAX_THREADS, `an integer from 1 to ${MAX_THREADS}`);
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
      const variant = oneOf('variant', spec.variant, ['single', 'threads'] as const);
      const a = hostBuffer('a', spec.a, ['fp32']);
      const b = hostBuffer('b', spec.b, ['fp32']);
      const out = hostBuffer('out', spec.out, ['fp32']);
      sameLength(['a', 'b', 'out'], [a, b, out]);
      return { ...base, variant, threads, buffers: { a: a.raw, b: b.raw, out: out.raw } };
    }
    case 'exp': {
      const variant = oneOf('variant', spec.variant, ['single', 'threads'] as const);
      const x = hostBuffer('x', spec.x, ['fp32']);
      const out = hostBuffer('out', spec.out, ['fp32']);
      sameLength(['x', 'out'], [x, out]);
      return { ...base, variant, threads, buffers: { x: x.raw, out: out.raw } };
    }
    case 'vector-function': {
      const variant = oneOf('variant', spec.variant, ['single', 'threads'] as const);
      const x = hostBuffer('x', spec.x, ['fp64']);
      const y = hostBuffer('y', spec.y, ['fp64']);
      const out = hostBuffer('out', spec.out, ['fp64']);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      const numbers = { a: finiteNumber('a', spec.a), b: finiteNumber('b', spec.b), c: finiteNumber('c', spec.c) };
      return { ...base, variant, threads, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers };
    }
    case 'gemm': {
      const variant = oneOf('variant', spec.variant, ['blas', 'blocked'] as const);
      const a = hostBuffer('a', spec.a, ['fp32', 'fp64']);
      const b = hostBuffer('b', spec.b, [a.dtype]);
      const out = hostBuffer('out', spec.out, [a.dtype]);
      const m = positiveInteger('m', spec.m, MAX_DIM);
      const n = positiveInteger('n', spec.n, MAX_DIM);
      const k = positiveInteger('k', spec.k, MAX_DIM);
      for (const [name, buf, want, formula] of [
        ['a', a, m * k, 'm·k'],
        ['b', b, k * n, 'k·n'],
        ['out', out, m * n, 'm·n'],
      ] as const) {
        if (buf.length !== want) {
          throw new GpuLabError('LENGTH_MISMATCH', `Expected \`${name}\` to hold ${formula} = ${want} elements but it holds ${buf.length}`, {
            argument: name,
          });
        }
      }
      return { ...base, variant, threads, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers: { m, n, k } };
    }
  }
}
