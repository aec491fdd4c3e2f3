// Verification of a measured result against a float64 reference computed here, in JS, from the same inputs (or
// from host twins filled with the same seed): elementwise results compared in full up to a million elements and
// sampled beyond; GEMM results spot-checked on a grid of sampled rows × columns, each entry a k-term dot product
// in float64. The error measure and the tolerances are the facade's (native/verification.ts), one table for the
// bench, the labs and the GPU tests.
import type { Verification } from '../common/measurement.ts';
import { ELEMENTWISE_TOLERANCE, gemmTolerance, verify } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';

export { ELEMENTWISE_TOLERANCE, gemmTolerance };

const FULL_CHECK_LIMIT = 1 << 20;
const ELEMENT_SAMPLES = 4096;
const GEMM_GRID = 8;



// Deterministic sample of `count` indices in [0, n), always including the first and the last.
export function sampleIndices(n: number, count: number, seed = 12345): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  const out = [0, n - 1];
  let state = seed >>> 0;
  while (out.length < count) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out.push(Math.floor((state / 2 ** 32) * n));
  }
  return out;
}

// `indices[i]` is the element index of got[i]/ref[i]; absent when they are the whole output in order.
function verdict(got: ArrayLike<number>, ref: ArrayLike<number>, indices: readonly number[] | null, tolerance: number, total: number, method: Verification['method']): Verification {
  const v = verify(got, ref, tolerance, indices ?? undefined);
  const finite = Number.isFinite(v.relError);
  return {
    method,
    checked: ref.length,
    total,
    relativeError: finite ? v.relError : null,
    tolerance,
    passed: finite && v.passed,
    mismatches: v.mismatches.map((m) => ({ index: m.index, got: Number.isFinite(m.got) ? m.got : null, expected: m.expected })),
  };
}

// The elements of an output of n that verifyElementwise reads: all of them (null), or its sample.
export function elementwiseReads(n: number): number[] | null {
  return n <= FULL_CHECK_LIMIT ? null : sampleIndices(n, ELEMENT_SAMPLES);
}

// The entries of an m×n product that verifyGemm reads: its grid of sampled rows and columns, row by row.
export function gemmReads(m: number, n: number): number[] {
  const rows = sampleIndices(m, GEMM_GRID, 7);
  const cols = sampleIndices(n, GEMM_GRID, 11);
  return rows.flatMap((i) => cols.map((j) => i * n + j));
}

// What verification reads of an array: a native buffer, or a WebGPU array's host copy (host/webgpu/backend.ts).
export type ElementsRead = Pick<ElementBuffer, 'length' | 'toFloat64'>;

// `inputs` are the operands in order (device buffers, or host twins holding the same values); `refAt` computes the
// exact result of one element from their values.
export function verifyElementwise(out: ElementsRead, inputs: ElementsRead[], refAt: (values: number[]) => number, tolerance: number): Verification {
  const n = out.length;
  if (n <= FULL_CHECK_LIMIT) {
    const got = out.toFloat64();
    const cols = inputs.map((b) => b.toFloat64());
    const ref = new Float64Array(n);
    const values: number[] = new Array<number>(inputs.length).fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < cols.length; j++) values[j] = cols[j]?.[i] ?? Number.NaN;
      ref[i] = refAt(values);
    }
    return verdict(got, ref, null, tolerance, n, 'full');
  }
  const idx = sampleIndices(n, ELEMENT_SAMPLES);
  const got = idx.map((i) => out.toFloat64(i, 1)[0] ?? Number.NaN);
  const ref = idx.map((i) => refAt(inputs.map((b) => b.toFloat64(i, 1)[0] ?? Number.NaN)));
  return verdict(got, ref, idx, tolerance, n, 'sampled');
}

// C (m×n) = A (m×k) · B (k×n), all row-major. Checks a GEMM_GRID × GEMM_GRID grid of entries.
export function verifyGemm(a: ElementBuffer, b: ElementBuffer, c: ElementBuffer, m: number, n: number, k: number, tolerance: number): Verification {
  const rows = sampleIndices(m, GEMM_GRID, 7);
  const cols = sampleIndices(n, GEMM_GRID, 11);
  const bCols = cols.map(() => new Float64Array(k));
  for (let kk = 0; kk < k; kk++) {
    cols.forEach((j, t) => {
      const col = bCols[t];
      if (col) col[kk] = b.toFloat64(kk * n + j, 1)[0] ?? Number.NaN;
    });
  }
  const got: number[] = [];
  const ref: number[] = [];
  const where: number[] = [];
  for (const i of rows) {
    const aRow = a.toFloat64(i * k, k);
    cols.forEach((j, t) => {
      const col = bCols[t] ?? new Float64Array(k);
      let sum = 0;
      for (let kk = 0; kk < k; kk++) sum += (aRow[kk] ?? 0) * (col[kk] ?? 0);
      ref.push(sum);
      got.push(c.toFloat64(i * n + j, 1)[0] ?? Number.NaN);
      where.push(i * n + j);
    });
  }
  const method = rows.length === m && cols.length === n ? 'full' : 'sampled';
  return verdict(got, ref, where, tolerance, m * n, method);
}
