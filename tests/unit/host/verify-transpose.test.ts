import { describe, expect, it } from 'vitest';

import { verifyTranspose } from '../../../main/host/verify-transpose.ts';
import { createHostBuffer } from '../../../native/index.ts';
import type { ElementBuffer } from '../../../native/index.ts';

function transposed(input: ElementBuffer<'fp32'>, n: number): ElementBuffer<'fp32'> {
  const v = input.read();
  const t = new Float32Array(n * n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) t[c * n + r] = v[r * n + c] ?? Number.NaN;
  return createHostBuffer('fp32', n * n).write(t);
}

describe('verification of a transpose', () => {
  it('passes an exact transpose, in full up to a million elements and sampled beyond', () => {
    for (const [n, method] of [[257, 'full'], [1025, 'sampled']] as const) {
      const input = createHostBuffer('fp32', n * n).fillRandom(n, { low: -1, high: 1 });
      const v = verifyTranspose(transposed(input, n), input, n);
      expect(v).toMatchObject({ passed: true, method, total: n * n, relativeError: 0, tolerance: 0, mismatches: [] });
    }
  });

  it('fails the untransposed matrix, naming the first element off the diagonal', () => {
    const n = 257;
    const input = createHostBuffer('fp32', n * n).fillRandom(3, { low: -1, high: 1 });
    const v = verifyTranspose(input, input, n);
    expect(v.passed).toBe(false);
    // out[0·n + 1] should be in[1·n + 0].
    expect(v.mismatches[0]).toEqual({ index: 1, got: input.read(1, 1)[0], expected: input.read(n, 1)[0] });
  });

  it('fails an element left unwritten (still NaN), whatever its value would round to', () => {
    const n = 33;
    const input = createHostBuffer('fp32', n * n).fillRandom(5, { low: -1, high: 1 });
    const out = transposed(input, n);
    out.write(new Float32Array([Number.NaN]), 40);
    const v = verifyTranspose(out, input, n);
    expect(v.passed).toBe(false);
    expect(v.relativeError).toBeNull();
    expect(v.mismatches).toEqual([{ index: 40, got: null, expected: input.read((40 % n) * n + Math.floor(40 / n), 1)[0] }]);
  });
});
