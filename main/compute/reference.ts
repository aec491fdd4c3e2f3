// CPU references for checking results: exact fp64 recomputation of sampled elements, and the relative error
// ‖out − ref‖ / ‖ref‖ over those elements. Sampling keeps the check of a 10⁸-element or N = 4000 result under a
// few milliseconds while still catching wrong indexing, unwritten outputs and wrong arithmetic.

export interface Check {
  verified: boolean;
  relError: number | null;
}

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

export function relativeError(out: ArrayLike<number>, ref: ArrayLike<number>): number {
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

// NaN never passes: a NaN error compares false.
export function check(out: ArrayLike<number>, ref: ArrayLike<number>, tolerance: number): Check {
  const relError = relativeError(out, ref);
  return { verified: relError <= tolerance, relError };
}

// GEMM tolerance grows with the reduction length k: each output sums k products rounded with unit roundoff u
// (2⁻²⁴ in fp32, 2⁻⁵³ in fp64); for random data the error of such a sum grows like √k·u. A factor of 8 leaves room
// for blocked summation orders, with a floor for tiny k. fp32 at k = 4000: 8·63·6e-8 ≈ 3e-5.
export function gemmTolerance(k: number, dtype: 'fp32' | 'fp64'): number {
  const u = dtype === 'fp32' ? 2 ** -24 : 2 ** -53;
  return Math.max(8 * u, 8 * Math.sqrt(k) * u);
}
