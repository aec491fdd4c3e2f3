// Verification of a measured result against a float64 reference computed here, in JS, from the same inputs (or
// from host twins filled with the same seed): elementwise results compared in full up to a million elements and
// sampled beyond; GEMM results spot-checked on a grid of sampled rows × columns, each entry a k-term dot product
// in float64. The error measure and the tolerances are the facade's (native/verification.ts), one table for the
// bench, the labs and the GPU tests.
import type { Verification } from '../common/measurement.ts';
import { ELEMENTWISE_TOLERANCE, MAX_GATHERED_ELEMENTS, gemmTolerance, verify } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';

export { ELEMENTWISE_TOLERANCE, gemmTolerance };

const FULL_CHECK_LIMIT = 1 << 20;
const ELEMENT_SAMPLES = 4096;
const GEMM_GRID = 8;
// What one read of a few elements costs, in elements a longer read brings back (and widens to float64) in the same
// time: on the GPU a read is a synchronous copy, about 13 µs on the H200's host, where a span costs about 1.5 ns an
// element; in host memory a call into the addon, a microsecond. Sampled elements closer together than that are read
// in one span: a GEMM's check read each of 8 columns of B one element at a time, 56 000 copies (0.73 s) at N = 7000,
// where the rows that hold them take some 75 ms in a few spans.
const READ_ELEMENTS: Record<'device' | 'host', number> = { device: 8192, host: 512 };
// What one element gathered costs (toFloat64At: its index checked and sent, its value brought back and widened, some
// 10 ns), in elements of a span: a span is read whole only where its read and its extent cost less than gathering
// the elements it holds. The rest come back in one gather, MAX_GATHERED_ELEMENTS at a time: 4096 samples scattered
// over 10⁸ elements of a device buffer were 4096 copies (53 ms), and are one.
const GATHERED_ELEMENT_COST: Record<'device' | 'host', number> = { device: 6, host: 5 };
// The longest span read at once (a float64 copy of it is made: 32 MiB).
const SPAN_ELEMENTS = 1 << 22;

// What verification reads of an array: a native buffer, or a WebGPU array's host copy (host/webgpu/backend.ts), read
// as host memory, or a peer's sampled output (ops/peer.ts), which does not gather.
export type ElementsRead = Pick<ElementBuffer, 'length' | 'toFloat64'> & Partial<Pick<ElementBuffer, 'location' | 'toFloat64At'>>;

// The buffer's elements at `indices` (any order, repeats allowed) as float64, read in as few copies as the cost of a
// read makes worth it: indices close together (READ_ELEMENTS) in one span, the scattered ones gathered where the
// buffer gathers, else read one by one.
export function readAt(buffer: ElementsRead, indices: readonly number[]): Float64Array {
  const out = new Float64Array(indices.length);
  const order = indices.map((_, i) => i).sort((x, y) => (indices[x] ?? 0) - (indices[y] ?? 0));
  const where = buffer.location === 'device' ? 'device' : 'host';
  const gap = READ_ELEMENTS[where];
  // Positions in `indices` of the elements left to gather.
  const gathered: number[] = [];
  let first = 0;
  while (first < order.length) {
    const start = indices[order[first] ?? 0] ?? 0;
    let last = first;
    // One span while each next index lies within a read's worth of the one before, and the span stays bounded.
    for (;;) {
      const next = indices[order[last + 1] ?? -1];
      if (next === undefined || next - (indices[order[last] ?? 0] ?? 0) > gap || next - start >= SPAN_ELEMENTS) break;
      last++;
    }
    const end = indices[order[last] ?? 0] ?? start;
    if (buffer.toFloat64At && gap + end - start + 1 > (last - first + 1) * GATHERED_ELEMENT_COST[where]) {
      for (let i = first; i <= last; i++) gathered.push(order[i] ?? 0);
    } else {
      const values = buffer.toFloat64(start, end - start + 1);
      for (let i = first; i <= last; i++) {
        const at = order[i] ?? 0;
        out[at] = values[(indices[at] ?? 0) - start] ?? Number.NaN;
      }
    }
    first = last + 1;
  }
  for (let from = 0; from < gathered.length && buffer.toFloat64At; from += MAX_GATHERED_ELEMENTS) {
    const part = gathered.slice(from, from + MAX_GATHERED_ELEMENTS);
    const values = buffer.toFloat64At(part.map((at) => indices[at] ?? 0));
    part.forEach((at, i) => {
      out[at] = values[i] ?? Number.NaN;
    });
  }
  return out;
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

// `indices[i]` is the element index of got[i]/ref[i]; absent when they are the whole output in order.
function verdict(got: ArrayLike<number>, ref: ArrayLike<number>, indices: readonly number[] | null, tolerance: number, total: number, method: Verification['method']): Verification {
  const v = verify(got, ref, tolerance, indices ?? undefined);
  const finite = Number.isFinite(v.relativeError);
  return {
    method,
    checked: ref.length,
    total,
    relativeError: finite ? v.relativeError : null,
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
  const got = readAt(out, idx);
  const cols = inputs.map((b) => readAt(b, idx));
  const ref = idx.map((_, s) => refAt(cols.map((c) => c[s] ?? Number.NaN)));
  return verdict(got, ref, idx, tolerance, n, 'sampled');
}

// C (m×n) = A (m×k) · B (k×n), all row-major. Checks a GEMM_GRID × GEMM_GRID grid of entries.
export function verifyGemm(a: ElementsRead, b: ElementsRead, c: ElementsRead, m: number, n: number, k: number, tolerance: number): Verification {
  const rows = sampleIndices(m, GEMM_GRID, 7);
  const cols = sampleIndices(n, GEMM_GRID, 11);
  // B's sampled columns, k × columns, row by row as B holds them.
  const bValues = readAt(b, Array.from({ length: k * cols.length }, (_, x) => Math.floor(x / cols.length) * n + (cols[x % cols.length] ?? 0)));
  const where = rows.flatMap((i) => cols.map((j) => i * n + j));
  const got = Array.from(readAt(c, where));
  const ref: number[] = [];
  for (const i of rows) {
    const aRow = a.toFloat64(i * k, k);
    cols.forEach((_, t) => {
      let sum = 0;
      for (let kk = 0; kk < k; kk++) sum += (aRow[kk] ?? 0) * (bValues[kk * cols.length + t] ?? 0);
      ref.push(sum);
    });
  }
  const method = rows.length === m && cols.length === n ? 'full' : 'sampled';
  return verdict(got, ref, where, tolerance, m * n, method);
}
