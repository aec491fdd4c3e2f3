// The checks a student's kernel must pass before it is timed, each against a float64 reference computed here from
// the same inputs. Outputs are filled with a poison first (every byte 0xFF, a NaN no arithmetic makes: the GPU's
// own NaN is 0x7FFFFFFF), so an element never written is told from one written wrong. Three counts, each of what it
// says: the elements compared with the reference (`checked`), those of them that are wrong (never more than
// `checked`), and the elements of the whole output still holding the poison (`neverWritten`). Pure functions of
// arrays: tested here without a GPU.
import type { Mismatch, VerificationResult } from '../common/playground.ts';

const MAX_LISTED = 10;

interface Shape {
  rows: number | null;
  cols: number | null;
}

type Floats = Float32Array | Float64Array;

// Whether element i still holds the poison, read from its bits (a NaN read into a JS number may lose them).
export function poisonedAt(out: Floats): (i: number) => boolean {
  const words = new Uint32Array(out.buffer, out.byteOffset, (out.length * out.BYTES_PER_ELEMENT) / 4);
  if (out instanceof Float32Array) return (i) => words[i] === 0xffffffff;
  return (i) => words[2 * i] === 0xffffffff && words[2 * i + 1] === 0xffffffff;
}

class Tally {
  checked = 0;
  wrong = 0;
  neverWritten = 0;
  // null once an element checked gives no relative error (NaN, infinite, or off from an expected 0).
  maxRelativeError: number | null = 0;
  readonly mismatches: Mismatch[] = [];
  private outsideListed = 0;
  private readonly shape: Shape;
  constructor(shape: Shape) {
    this.shape = shape;
  }

  // `limit`: the largest |got − expected| allowed for this element; `unwritten`: it still holds the poison.
  check(index: number, got: number, expected: number, limit: number, unwritten: boolean): void {
    this.checked++;
    const diff = Math.abs(got - expected);
    const relative = diff === 0 ? 0 : diff / Math.abs(expected);
    if (!Number.isFinite(relative)) this.maxRelativeError = null;
    else if (this.maxRelativeError !== null && relative > this.maxRelativeError) this.maxRelativeError = relative;
    if (unwritten) this.neverWritten++;
    // NaN compares false: a NaN is wrong.
    if (diff <= limit) return;
    this.wrong++;
    this.list(index, got, expected, unwritten);
  }

  // An element outside those compared with the reference, found holding the poison (never written) or a NaN or an
  // infinity the kernel wrote (wrong whatever the reference, which is finite: counted as checked and wrong). Its
  // expected value is computed for the first few only (listing more is pointless, and each may cost a k-term dot
  // product). Called in index order.
  outside(index: number, got: number, unwritten: boolean, expected: () => number): void {
    if (unwritten) this.neverWritten++;
    else {
      this.checked++;
      this.wrong++;
      this.maxRelativeError = null;
    }
    if (this.outsideListed++ < MAX_LISTED) this.list(index, got, expected(), unwritten);
  }

  private list(index: number, got: number, expected: number, unwritten: boolean): void {
    const cols = this.shape.cols;
    this.mismatches.push({ index, row: cols ? Math.floor(index / cols) : null, col: cols ? index % cols : null, got: Number.isNaN(got) ? null : got, expected, unwritten });
    // Only the first few by index are reported: a kernel wrong everywhere must not fill memory with millions.
    if (this.mismatches.length > 4 * MAX_LISTED) {
      this.mismatches.sort((x, y) => x.index - y.index);
      this.mismatches.length = MAX_LISTED;
    }
  }

  result(total: number, method: string, tolerance: string, spec: Pick<VerificationResult, 'check' | 'relativeTolerance' | 'samples'>): VerificationResult {
    // Listed in index order whatever order they were checked in (the sampled GEMM check is not in order).
    const first = [...this.mismatches].sort((a, b) => a.index - b.index).slice(0, MAX_LISTED);
    return {
      ok: this.wrong === 0 && this.neverWritten === 0,
      checked: this.checked,
      total,
      method,
      tolerance,
      ...spec,
      mismatchCount: this.wrong,
      neverWritten: this.neverWritten,
      mismatches: first,
      maxRelativeError: this.maxRelativeError,
    };
  }
}


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
  const poisoned = poisonedAt(out);
  for (let i = 0; i < out.length; i++) {
    const e = ref[i] ?? 0;
    tally.check(i, out[i] ?? Number.NaN, e, Math.max(rel * Math.abs(e), floor), poisoned(i));
  }
  return tally.result(out.length, 'every element', `relative ${rel} (floor ${rel} × RMS)`, { check: 'every-element', relativeTolerance: rel, samples: null });
}

export function verifyExact(out: Floats, expected: (i: number) => number, shape: Shape): VerificationResult {
  const tally = new Tally(shape);
  const poisoned = poisonedAt(out);
  for (let i = 0; i < out.length; i++) tally.check(i, out[i] ?? Number.NaN, expected(i), 0, poisoned(i));
  return tally.result(out.length, 'every element', 'exact', { check: 'every-element', relativeTolerance: 0, samples: null });
}

// The sum of whole numbers below 2²⁴ is exact in fp32 whatever the order, so the check is exact too. `out` is the
// one-element output (set to 0 before the launch, so it holds the poison only if something wrote it back).
export function verifySum(out: Floats, x: Floats): VerificationResult {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += x[i] ?? 0;
  const tally = new Tally({ rows: null, cols: null });
  tally.check(0, out[0] ?? Number.NaN, sum, 0, poisonedAt(out)(0));
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

// C is m×n: the last row, the last column and `samples` random elements are checked against k-term dot products in
// float64, and every other element for having been written, as a finite number (a NaN or an infinity there is wrong
// whatever the reference, and counted among the elements checked). The tolerance is that of an fp32 sum of k terms
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
  const poisoned = poisonedAt(c);
  indices.forEach((index, s) => tally.check(index, c[index] ?? Number.NaN, ref[s] ?? 0, limit, poisoned(index)));
  const compared = tally.checked;
  // The rest for having been written, and as a finite number.
  for (let i = 0; i < c.length; i++) {
    const got = c[i] ?? Number.NaN;
    if (!Number.isFinite(got) && !picked.has(i)) tally.outside(i, got, poisoned(i), () => dotAt(a, b, n, k, i));
  }
  return tally.result(m * n, `${compared} elements against float64 dot products (the last row, the last column, ${p.samples} at random); every element for having been written, as a finite number`, `${rel.toExponential(2)} × RMS`, {
    check: 'sampled-gemm',
    relativeTolerance: rel,
    samples: p.samples,
  });
}
