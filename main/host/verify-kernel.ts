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

// `expected`: the float64 reference of every element, or a function giving element i's. A function is called where it
// is needed and nothing of n elements is allocated for it unless an element is wrong: writing and reading back a
// reference of 16 million float64 took most of SAXPY's round trip.
export function verifyElementwise(out: Floats, expected: Float64Array | ((i: number) => number), precision: 'fp32' | 'fp64', refRms?: number): VerificationResult {
  const rel = ELEMENTWISE_RELATIVE[precision];
  const at = expected instanceof Float64Array ? (i: number): number => expected[i] ?? 0 : expected;
  // The RMS of the reference, where the caller computed it while filling it.
  const floor = rel * (refRms ?? rmsOf(at, out.length));
  const method = { check: 'every-element', relativeTolerance: rel, samples: null } as const;
  const clean = cleanElementwise(out, at, rel, floor);
  if (clean) return cleanResult(out.length, 'every element', `relative ${rel} (floor ${rel} × RMS)`, method, clean.maxRelativeError);
  const tally = new Tally({ rows: null, cols: null });
  const poisoned = poisonedAt(out);
  for (let i = 0; i < out.length; i++) {
    const e = at(i);
    tally.check(i, out[i] ?? Number.NaN, e, Math.max(rel * Math.abs(e), floor), poisoned(i));
  }
  return tally.result(out.length, 'every element', `relative ${rel} (floor ${rel} × RMS)`, method);
}

function rmsOf(at: (i: number) => number, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += at(i) ** 2;
  return n ? Math.sqrt(sum / n) : 0;
}

// The common case first, in one tight loop: every element within its tolerance (a poisoned or NaN element is not:
// NaN compares false). Then the result is known without the tally's bookkeeping, which costs most of a second over
// 16 million elements; any element out of it sends the check through the tally, element by element.
function cleanElementwise(out: Floats, at: (i: number) => number, rel: number, floor: number): { maxRelativeError: number | null } | null {
  let max = 0;
  let finite = true;
  for (let i = 0; i < out.length; i++) {
    const e = at(i);
    const diff = Math.abs((out[i] ?? Number.NaN) - e);
    if (!(diff <= Math.max(rel * Math.abs(e), floor))) return null;
    // The relative error is divided out only where it can be a new largest one.
    if (diff === 0 || diff <= max * Math.abs(e)) continue;
    const r = diff / Math.abs(e);
    if (!Number.isFinite(r)) finite = false;
    else max = r;
  }
  return { maxRelativeError: finite ? max : null };
}

function cleanResult(total: number, method: string, tolerance: string, spec: Pick<VerificationResult, 'check' | 'relativeTolerance' | 'samples'>, maxRelativeError: number | null): VerificationResult {
  return { ok: true, checked: total, total, method, tolerance, ...spec, mismatchCount: 0, neverWritten: 0, mismatches: [], maxRelativeError };
}

// out = inᵀ for a rows × cols input (out[c·rows + r] = in[r·cols + c]), every element compared exactly. The clean
// case walks both in 64 × 64 blocks, so that neither is read a cache line per element (a plain walk of 16 million
// took most of a second); anything wrong goes through verifyExact, element by element.
export function verifyTranspose(out: Floats, input: Floats, rows: number, cols: number): VerificationResult {
  const B = 64;
  let clean = out.length === rows * cols;
  for (let r0 = 0; r0 < rows && clean; r0 += B) {
    for (let c0 = 0; c0 < cols && clean; c0 += B) {
      const r1 = Math.min(rows, r0 + B);
      const c1 = Math.min(cols, c0 + B);
      for (let r = r0; r < r1 && clean; r++) {
        for (let c = c0; c < c1; c++) {
          if (out[c * rows + r] !== input[r * cols + c]) {
            clean = false;
            break;
          }
        }
      }
    }
  }
  if (clean) return cleanResult(out.length, 'every element', 'exact', { check: 'every-element', relativeTolerance: 0, samples: null }, 0);
  return verifyExact(out, (i) => input[(i % rows) * cols + Math.floor(i / rows)] ?? Number.NaN, { rows: cols, cols: rows });
}

export function verifyExact(out: Floats, expected: (i: number) => number, shape: Shape): VerificationResult {
  const method = { check: 'every-element', relativeTolerance: 0, samples: null } as const;
  let clean = true;
  // As above: the common case in a tight loop, the tally only for a kernel with something wrong.
  for (let i = 0; i < out.length && clean; i++) clean = out[i] === expected(i);
  if (clean) return cleanResult(out.length, 'every element', 'exact', method, 0);
  const tally = new Tally(shape);
  const poisoned = poisonedAt(out);
  for (let i = 0; i < out.length; i++) tally.check(i, out[i] ?? Number.NaN, expected(i), 0, poisoned(i));
  return tally.result(out.length, 'every element', 'exact', method);
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

// Row `row` of A·B in float64, walking B by rows: one pass over B in memory order (a column-by-column walk reads a
// new cache line for every term, and took most of a second at 4096²).
function rowOfProduct(a: Float32Array, b: Float32Array, n: number, k: number, row: number): Float64Array {
  const out = new Float64Array(n);
  for (let q = 0; q < k; q++) {
    const aq = a[row * k + q] ?? 0;
    const base = q * n;
    for (let j = 0; j < n; j++) out[j] = (out[j] ?? 0) + aq * (b[base + j] ?? 0);
  }
  return out;
}

// Column `col` of B, gathered once so that each dot product with it reads memory in order.
function columnOf(b: Float32Array, n: number, k: number, col: number): Float64Array {
  const out = new Float64Array(k);
  for (let q = 0; q < k; q++) out[q] = b[q * n + col] ?? 0;
  return out;
}

function rowDot(a: Float32Array, k: number, row: number, column: Float64Array): number {
  let sum = 0;
  const base = row * k;
  for (let q = 0; q < k; q++) sum += (a[base + q] ?? 0) * (column[q] ?? 0);
  return sum;
}

// `count` distinct indices of [0, limit), drawn from `state` (a partial Fisher–Yates shuffle), in ascending order.
function distinctDraw(count: number, limit: number, state: { s: number }): number[] {
  const pool = Array.from({ length: limit }, (_, i) => i);
  const n = Math.min(count, limit);
  for (let i = 0; i < n; i++) {
    state.s = (Math.imul(state.s, 1664525) + 1013904223) >>> 0;
    const j = i + Math.floor((state.s / 2 ** 32) * (limit - i));
    [pool[i], pool[j]] = [pool[j] ?? 0, pool[i] ?? 0];
  }
  return pool.slice(0, n).sort((x, y) => x - y);
}

// The tolerance of an fp32 sum of k terms, relative to the RMS of the reference: 8·√k·u with u = 2⁻²⁴.
export function sgemmRelativeTolerance(k: number): number {
  const u = 2 ** -24;
  return Math.max(8 * u, 8 * Math.sqrt(k) * u);
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

// C is m×n: the last row, the last column, and the elements where √samples random rows cross as many random
// columns are checked against k-term dot products in float64 (products of two floats are exact there); every other
// element for having been written, as a finite number (a NaN or an infinity there is wrong whatever the reference,
// and counted among the elements checked). The tolerance is that of an fp32 sum of k terms (8·√k·u with u = 2⁻²⁴)
// times the RMS of the elements checked, the engine's own GEMM rule. Rows and crossings rather than scattered
// elements: each reference then reads A and B in memory order, about 3·m·k multiply-adds at m = n = k, a tenth of a
// second at 4096² where scattered columns took most of a second.
export function verifySgemm(p: SampledGemm): VerificationResult {
  const { a, b, c, m, n, k } = p;
  const tally = new Tally({ rows: m, cols: n });
  const side = Math.round(Math.sqrt(Math.max(p.samples, 0)));
  const state = { s: p.seed >>> 0 };
  const gridRows = distinctDraw(side, m - 1, state);
  const gridCols = distinctDraw(side, n - 1, state);
  const inGridRow = new Uint8Array(m);
  const inGridCol = new Uint8Array(n);
  for (const r of gridRows) inGridRow[r] = 1;
  for (const col of gridCols) inGridCol[col] = 1;
  const compared = (i: number): boolean => {
    const row = Math.floor(i / n);
    const col = i % n;
    return row === m - 1 || col === n - 1 || (inGridRow[row] === 1 && inGridCol[col] === 1);
  };

  const indices: number[] = [];
  const refs: number[] = [];
  const lastRow = rowOfProduct(a, b, n, k, m - 1);
  for (let j = 0; j < n; j++) {
    indices.push((m - 1) * n + j);
    refs.push(lastRow[j] ?? 0);
  }
  const lastCol = columnOf(b, n, k, n - 1);
  for (let i = 0; i < m - 1; i++) {
    indices.push(i * n + n - 1);
    refs.push(rowDot(a, k, i, lastCol));
  }
  for (const col of gridCols) {
    const column = columnOf(b, n, k, col);
    for (const row of gridRows) {
      indices.push(row * n + col);
      refs.push(rowDot(a, k, row, column));
    }
  }
  const rel = sgemmRelativeTolerance(k);
  const limit = rel * rms(refs);
  const poisoned = poisonedAt(c);
  indices.forEach((index, s) => tally.check(index, c[index] ?? Number.NaN, refs[s] ?? 0, limit, poisoned(index)));
  const checked = tally.checked;
  // The rest for having been written, and as a finite number: a chunk whose elements times 0 sum to 0 holds neither
  // a NaN nor an infinity (either makes the sum NaN), and only the others are read element by element — a quarter
  // of the time of testing 16 million elements one by one.
  const CHUNK = 4096;
  for (let start = 0; start < c.length; start += CHUNK) {
    const end = Math.min(c.length, start + CHUNK);
    let zero = 0;
    for (let i = start; i < end; i++) zero += (c[i] ?? 0) * 0;
    if (zero === 0) continue;
    for (let i = start; i < end; i++) {
      const got = c[i] ?? Number.NaN;
      if (!Number.isFinite(got) && !compared(i)) tally.outside(i, got, poisoned(i), () => dotAt(a, b, n, k, i));
    }
  }
  const samples = gridRows.length * gridCols.length;
  return tally.result(m * n, `${checked} elements against float64 dot products (the last row, the last column, the ${samples} where ${gridRows.length} random rows cross ${gridCols.length} random columns); every element for having been written, as a finite number`, `${rel.toExponential(2)} × RMS`, {
    check: 'gemm-crossings',
    relativeTolerance: rel,
    samples,
  });
}
