// Verification of a transposed matrix: out (n×n, row-major) against the input it was made from, element for
// element and exactly, since a transpose only moves values. In full up to a million elements, sampled beyond (as
// verify.ts does for elementwise results): reading a matrix of 16384² back to check it would take longer than
// timing it.
import type { Verification } from '../common/measurement.ts';
import { verify } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { readAt, sampleIndices } from './verify.ts';

const FULL_CHECK_LIMIT = 1 << 20;
const ELEMENT_SAMPLES = 4096;

export function verifyTranspose(out: ElementBuffer, input: ElementBuffer, n: number): Verification {
  const total = n * n;
  // out[r·n + c] = in[c·n + r]
  const sourceOf = (i: number): number => (i % n) * n + Math.floor(i / n);
  const full = total <= FULL_CHECK_LIMIT;
  const indices = full ? null : sampleIndices(total, ELEMENT_SAMPLES);
  let got: ArrayLike<number>;
  let ref: number[];
  if (indices === null) {
    const values = input.toFloat64();
    got = out.toFloat64();
    ref = Array.from({ length: total }, (_, i) => values[sourceOf(i)] ?? Number.NaN);
  } else {
    got = readAt(out, indices);
    ref = Array.from(readAt(input, indices.map(sourceOf)));
  }
  const v = verify(got, ref, 0, indices ?? undefined);
  const finite = Number.isFinite(v.relativeError);
  return {
    method: full ? 'full' : 'sampled',
    checked: ref.length,
    total,
    relativeError: finite ? v.relativeError : null,
    tolerance: 0,
    passed: finite && v.passed,
    mismatches: v.mismatches.map((m) => ({ index: m.index, got: Number.isFinite(m.got) ? m.got : null, expected: m.expected })),
  };
}
