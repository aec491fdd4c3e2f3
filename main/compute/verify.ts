// Verification of a measured result against a float64 reference computed here, in JS, from the same inputs:
// elementwise results compared in full up to a million elements and sampled beyond; GEMM results spot-checked on
// a grid of sampled rows × columns, each entry a k-term dot product in float64.
import type { GemmDtype, Verification } from '../common/measurement.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { gemmTolerance, relativeError, sampleIndices } from './reference.ts';

const FULL_CHECK_LIMIT = 1 << 20;
const ELEMENT_SAMPLES = 4096;
const GEMM_GRID = 8;
const MAX_MISMATCHES = 5;

// Unit roundoff of each dtype's inputs: tf32 keeps 10 mantissa bits, fp16 10, bf16 7.
const GEMM_INPUT_TOLERANCE: Record<Exclude<GemmDtype, 'fp32' | 'fp64'>, number> = {
  tf32: 2e-3,
  fp16: 1e-2,
  bf16: 2e-2,
  // int8 products summed in int32 are exact.
  int8: 0,
};

export function gemmDtypeTolerance(dtype: GemmDtype, k: number): number {
  return dtype === 'fp32' || dtype === 'fp64' ? gemmTolerance(k, dtype) : GEMM_INPUT_TOLERANCE[dtype];
}

// Elementwise fp32 results: one rounding of the result (add, mul) or a correctly rounded-ish exp, far below 1e-5.
export const ELEMENTWISE_TOLERANCE = { fp32: 1e-5, fp64: 1e-12 } as const;

// `indices[i]` is the element index of got[i]/ref[i]; absent when they are the whole output in order.
function verdict(got: ArrayLike<number>, ref: ArrayLike<number>, indices: readonly number[] | null, tolerance: number, total: number, method: Verification['method']): Verification {
  const err = relativeError(got, ref);
  const mismatches: Verification['mismatches'] = [];
  for (let i = 0; i < ref.length && mismatches.length < MAX_MISMATCHES; i++) {
    const g = got[i] ?? Number.NaN;
    const r = ref[i] ?? Number.NaN;
    // An element is a mismatch when it alone is off by more than the tolerance, relative to its own size.
    if (!(Math.abs(g - r) <= tolerance * Math.abs(r))) {
      mismatches.push({ index: indices?.[i] ?? i, got: Number.isFinite(g) ? g : null, expected: r });
    }
  }
  const finite = Number.isFinite(err);
  return {
    method,
    checked: ref.length,
    total,
    relativeError: finite ? err : null,
    tolerance,
    passed: finite && err <= tolerance,
    mismatches,
  };
}

// `inputs` are the operands in order; `refAt` computes the exact result of element i from their values.
export function verifyElementwise(out: ElementBuffer, inputs: ElementBuffer[], refAt: (values: number[]) => number, tolerance: number): Verification {
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
