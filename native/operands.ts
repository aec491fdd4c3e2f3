// Checks shared by the CPU and CUDA operation specs: a live buffer of the right dtype, equal lengths, and a GEMM
// shape that matches its buffers. Each error names the argument, the value and what was expected.
import { GpuLabError } from '../main/common/errors.ts';
import { ElementBuffer } from './buffers.ts';
import { INT_MAX, invalid, positiveInteger } from './validate.ts';

export interface GemmShape {
  m: number;
  n: number;
  k: number;
}

// A buffer made by this facade (anything else would reach the addon, which could only say "invalid argument"),
// not freed, of one of `dtypes`.
export function bufferOperand(name: string, value: unknown, dtypes: readonly string[]): ElementBuffer {
  if (!(value instanceof ElementBuffer)) throw invalid(name, `a ${dtypes.join(' or ')} buffer`, value);
  value.live(name);
  if (!dtypes.includes(value.dtype)) throw invalid(name, `a ${dtypes.join(' or ')} buffer`, `a ${value.dtype} buffer`, 'DTYPE_MISMATCH');
  return value;
}

export function sameLength(names: string[], bufs: ElementBuffer[]): void {
  const [first] = bufs;
  bufs.forEach((b, i) => {
    if (first && b.length !== first.length) {
      throw new GpuLabError('LENGTH_MISMATCH', `Expected \`${names[i]}\` to have the ${first.length} elements of \`${names[0]}\` but it has ${b.length}`, {
        argument: names[i],
      });
    }
  });
}

// m, n, k within the int BLAS and cuBLAS take, and A (m×k), B (k×n), C (m×n) holding exactly that many elements.
export function gemmShape(spec: Partial<GemmShape>, a: ElementBuffer, b: ElementBuffer, out: ElementBuffer): GemmShape {
  const m = positiveInteger('m', spec.m, INT_MAX);
  const n = positiveInteger('n', spec.n, INT_MAX);
  const k = positiveInteger('k', spec.k, INT_MAX);
  for (const [name, buf, want, formula] of [
    ['a', a, m * k, 'm·k'],
    ['b', b, k * n, 'k·n'],
    ['out', out, m * n, 'm·n'],
  ] as const) {
    if (buf.length !== want) {
      throw new GpuLabError('LENGTH_MISMATCH', `Expected \`${name}\` to hold ${formula} = ${want} elements but it holds ${buf.length}`, { argument: name });
    }
  }
  return { m, n, k };
}
