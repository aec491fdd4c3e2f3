// Checking a result brought back from a device against a CPU reference computed in float64: the relative error
// ‖out − ref‖₂ / ‖ref‖₂ and the tolerance each kind of result is held to (README.md, "How a number is made"). NaN never passes, so an
// output that was poisoned and never written fails.

import type { GemmDtype } from '../main/common/measurement.ts';

export interface VerificationResult {
  relativeError: number;
  tolerance: number;
  passed: boolean;
  // The first elements off by more than the tolerance times the reference's RMS magnitude, with their indices.
  mismatches: { index: number; got: number; expected: number }[];
}

export function relativeError(out: ArrayLike<number>, ref: ArrayLike<number>): number {
  if (out.length !== ref.length) return Number.NaN;
  let num = 0;
  let den = 0;
  for (let i = 0; i < ref.length; i++) {
    const r = ref[i] ?? Number.NaN;
    const d = (out[i] ?? Number.NaN) - r;
    num += d * d;
    den += r * r;
  }
  if (den === 0) return num === 0 ? 0 : Number.POSITIVE_INFINITY;
  return Math.sqrt(num / den);
}

// Elementwise results: one rounding per element (add, mul), a few ulp for exp; fp32 unit roundoff is 6e-8.
export const ELEMENTWISE_TOLERANCE = { fp32: 1e-5, fp64: 1e-12 } as const;

// GEMM: each output sums k products. In fp32 and fp64 the error of such a sum grows like √k·u for random data
// (u = 2⁻²⁴ or 2⁻⁵³), times 8 for blocked summation orders: fp32 at k = 7000 gives 8·84·6e-8 ≈ 4e-5. The reduced
// precisions are dominated by rounding the inputs (and fp16/bf16 outputs): tf32 keeps 10 mantissa bits (≈1e-3),
// fp16 10 and bf16 7 (≈1e-2). int8 products summed in int32 are exact.
export function gemmTolerance(precision: GemmDtype, k: number): number {
  switch (precision) {
    case 'fp64':
    case 'fp32': {
      const u = precision === 'fp32' ? 2 ** -24 : 2 ** -53;
      return Math.max(8 * u, 8 * Math.sqrt(k) * u);
    }
    case 'tf32': return 1e-3;
    case 'fp16':
    case 'bf16': return 1e-2;
    case 'int8': return 0;
  }
}

const MAX_MISMATCHES = 5;

// `indices[i]` names the element that out[i] and ref[i] are, for the mismatch report; default 0, 1, 2, …
// An element is reported when its error exceeds the tolerance times the RMS of the reference (‖ref‖₂/√n): the
// scale the norm-wise check works at. Relative to its own size instead, entries of a GEMM that happen to be near
// zero would be listed although the result is right. NaN is always reported.
export function verify(out: ArrayLike<number>, ref: ArrayLike<number>, tolerance: number, indices?: readonly number[]): VerificationResult {
  const error = relativeError(out, ref);
  let sumSquares = 0;
  for (let i = 0; i < ref.length; i++) sumSquares += (ref[i] ?? 0) ** 2;
  const scale = ref.length ? Math.sqrt(sumSquares / ref.length) : 0;
  const limit = Math.max(tolerance * scale, Number.MIN_VALUE);
  const mismatches: VerificationResult['mismatches'] = [];
  for (let i = 0; i < ref.length && mismatches.length < MAX_MISMATCHES; i++) {
    const got = out[i] ?? Number.NaN;
    const expected = ref[i] ?? Number.NaN;
    if (!(Math.abs(got - expected) <= limit) && !(got === expected)) mismatches.push({ index: indices?.[i] ?? i, got, expected });
  }
  return { relativeError: error, tolerance, passed: error <= tolerance, mismatches };
}
