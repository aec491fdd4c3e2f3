// The checks a student's kernel must pass before it is timed, each against a float64 reference computed here from
// the same inputs. Outputs start as NaN, so an element never written is a mismatch like any other. Pure functions
// of arrays: tested here without a GPU.
import type { Mismatch, VerificationResult } from '../common/playground.ts';

const MAX_LISTED = 10;

interface Shape {
  rows: number | null;
  cols: number | null;
}

class Tally {
  checked = 0;
  mismatchCount = 0;
  maxRelativeError = 0;
  readonly mismatches: Mismatch[] = [];
  private unwrittenListed = 0;
  private readonly shape: Shape;
  constructor(shape: Shape) {
    this.shape = shape;
  }

  // `limit`: the largest |got − expected| allowed for this element.
  check(index: number, got: number, expected: number, limit: number): void {
    this.checked++;
    const diff = Math.abs(got - expected);
    const relative = diff === 0 ? 0 : diff / Math.max(Math.abs(expected), Number.MIN_VALUE);
    if (Number.isNaN(got)) this.maxRelativeError = Number.POSITIVE_INFINITY;
    else if (relative > this.maxRelativeError) this.maxRelativeError = relative;
    if (diff <= limit) return;
    this.mismatchCount++;
    this.list(index, got, expected);
  }

  list(index: number, got: number, expected: number): void {
    const cols = this.shape.cols;
    this.mismatches.push({ index, row: cols ? Math.floor(index / cols) : null, col: cols ? index % cols : null, got: Number.isNaN(got) ? null : got, expected });
    // Only the first few by index are reported: a kernel wrong everywhere must not fill memory with millions.
    if (this.mismatches.length > 4 * MAX_LISTED) {
      this.mismatches.sort((x, y) => x.index - y.index);
      this.mismatches.length = MAX_LISTED;
    }
  }

  // An element checked only for having been written, found unwritten; its expected value is computed for the
  // first few only (listing more is pointless, and each costs a k-term dot product).
  // Called in index order, so only the first MAX_LISTED of them can be among the first listed.
  unwritten(index: number, expected: () => number): void {
    this.mismatchCount++;
    this.maxRelativeError = Number.POSITIVE_INFINITY;
    if (this.unwrittenListed++ < MAX_LISTED) this.list(index, Number.NaN, expected());
  }

  result(total: number, method: string, tolerance: string, spec: Pick<VerificationResult, 'check' | 'relativeTolerance' | 'samples'>): VerificationResult {
    // Listed in index order whatever order they were checked in (the sampled GEMM check is not in order).
    const first = [...this.mismatches].sort((a, b) => a.index - b.index).slice(0, MAX_LISTED);
    return {
      ok: this.mismatchCount === 0,
      checked: this.checked,
      total,
      method,
      tolerance,
      ...spec,
      mismatchCount: this.mismatchCount,
      mismatches: first,
      // JSON has no infinity: a NaN output is reported through its mismatch, with the largest finite error here.
      maxRelativeError: Number.isFinite(this.maxRelativeError) ? this.maxRelativeError : Number.MAX_VALUE,
    };
  }
}

type Floats = Float32Array | Float64Array;

// Elementwise results are each a handful of roundings: fp32 holds them to 10⁻⁵ of the element (its unit roundoff
// is 6·10⁻⁸; the GPU's fused multiply-adds round differently from the CPU's separate steps), fp64 to 10⁻¹². The
// floor of 10⁻⁵ of the RMS keeps elements near zero, whose relative error means nothing, from failing.
export const ELEMENTWISE_RELATIVE = { fp32: 1e-5, fp64: 1e-12 } as const;

function rms(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i] ?? 0) ** 2;
  return values.length ? Math.sqrt(sum / values.length) : 0;
}

export function verifyElementwise(out: Floats, expected: (i: number) => number, precision: 'fp32' | 'fp64'): VerificationResult {
  const rel = ELEMENTWISE_RELATIVE[precision];
  const tally = new Tally({ rows: null, cols: null });
  const ref = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) ref[i] = expected(i);
  const floor = rel * rms(ref);
  for (let i = 0; i < out.length; i++) {
    const e = ref[i] ?? 0;
    tally.check(i, out[i] ?? Number.NaN, e, Math.max(rel * Math.abs(e), floor));
  }
  return tally.result(out.length, 'every element', `relative ${rel} (floor ${rel} × RMS)`, { check: 'every-element', relativeTolerance: rel, samples: null });
}

export function verifyExact(out: Floats, expected: (i: number) => number, shape: Shape): VerificationResult {
  const tally = new Tally(shape);
  for (let i = 0; i < out.length; i++) tally.check(i, out[i] ?? Number.NaN, expected(i), 0);
  return tally.result(out.length, 'every element', 'exact', { check: 'every-element', relativeTolerance: 0, samples: null });
}

// The sum of whole numbers below 2²⁴ is exact in fp32 whatever the order, so the check is exact too.
export function verifySum(total: number, x: Floats): VerificationResult {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] ?? 0;
  const tally = new Tally({ rows: null, cols: null });
  tally.check(0, total, sum, 0);
  return tally.result(1, `the total of ${x.length} whole numbers`, 'exact', { check: 'total', relativeTolerance: 0, samples: null });
}

// Element `index` of C = A·B (row-major, C m×n), in float64.
function dotAt(a: Float32Array, b: Float32Array, n: number, k: number, index: number): number {
  const row = Math.floor(index / n);
  const col = index % n;
  let sum = 0;
  for (let q = 0; q < k; q++) sum += (a[row * k + q] ?? 0) * (b[q * n + col] ?? 0);
  return sum;
}

export interface SampledGemm {
  a: Float32Array;
  b: Float32Array;
  c: Float32Array;
  m: number;
  n: number;
  k: number;
  samples: number;
  seed: number;
}

// C is m×n: every element is checked for having been written (not NaN), and the last row, the last column and
// `samples` random elements against k-term dot products in float64. The tolerance is that of an fp32 sum of k terms
// (8·√k·u with u = 2⁻²⁴) times the RMS of the elements checked, the engine's own GEMM rule.
export function verifySgemm(p: SampledGemm): VerificationResult {
  const { a, b, c, m, n, k } = p;
  const tally = new Tally({ rows: m, cols: n });
  const picked = new Set<number>();
  for (let j = 0; j < n; j++) picked.add((m - 1) * n + j);
  for (let i = 0; i < m; i++) picked.add(i * n + n - 1);
  let state = p.seed >>> 0;
  for (let s = 0; s < p.samples && picked.size < m * n; s++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    picked.add(Math.floor((state / 2 ** 32) * m * n));
  }
  const indices = [...picked];
  const ref = new Float64Array(indices.length);
  indices.forEach((index, s) => {
    ref[s] = dotAt(a, b, n, k, index);
  });
  const u = 2 ** -24;
  const rel = Math.max(8 * u, 8 * Math.sqrt(k) * u);
  const limit = rel * rms(ref);
  indices.forEach((index, s) => tally.check(index, c[index] ?? Number.NaN, ref[s] ?? 0, limit));
  const sampledChecked = tally.checked;
  // The rest only for having been written: NaN is what the kernel left behind.
  for (let i = 0; i < c.length; i++) {
    if (!picked.has(i) && Number.isNaN(c[i] ?? Number.NaN)) tally.unwritten(i, () => dotAt(a, b, n, k, i));
  }
  const result = tally.result(m * n, `${sampledChecked} elements against float64 dot products (the last row, the last column, ${p.samples} at random); every element for having been written`, `${rel.toExponential(2)} × RMS`, {
    check: 'sampled-gemm',
    relativeTolerance: rel,
    samples: p.samples,
  });
  return { ...result, checked: sampledChecked };
}
