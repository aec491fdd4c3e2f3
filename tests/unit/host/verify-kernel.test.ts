import { describe, expect, it } from 'vitest';

import { poisonedAt, verifyElementwise, verifyExact, verifySgemm, verifySum, verifyTranspose } from '../../../main/host/verify-kernel.ts';

// What poison() leaves in an element (native/cuda/memory.cu): every byte 0xFF, a NaN no arithmetic makes.
function poison(out: Float32Array | Float64Array, i: number): void {
  const words = new Uint32Array(out.buffer, out.byteOffset + i * out.BYTES_PER_ELEMENT, out.BYTES_PER_ELEMENT / 4);
  words.fill(0xffffffff);
}

function random(n: number, seed = 1): Float32Array {
  const out = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 2 - 1;
  }
  return out;
}

describe('verification of a kernel’s output', () => {
  const x = random(10_000, 1);
  const y = random(10_000, 2);
  const ref = (i: number): number => 3.5 * (x[i] ?? 0) ** 2 + 2.8 * (y[i] ?? 0) + 10;
  const right = (): Float32Array => Float32Array.from({ length: x.length }, (_, i) => ref(i));

  it('passes an fp32 result that differs from float64 only by fp32 rounding', () => {
    const v = verifyElementwise(right(), ref, 'fp32');
    expect(v.ok).toBe(true);
    expect(v.checked).toBe(10_000);
    expect(v.maxRelativeError).toBeLessThan(1e-6);
  });

  it('reports the element an off-by-one kernel never wrote, as not written, and only that one', () => {
    const out = right();
    poison(out, out.length - 1);
    const v = verifyElementwise(out, ref, 'fp32');
    expect(v.ok).toBe(false);
    expect(v).toMatchObject({ checked: 10_000, mismatchCount: 1, neverWritten: 1, maxRelativeError: null });
    expect(v.mismatches).toEqual([{ index: 9999, row: null, col: null, got: null, expected: ref(9999), unwritten: true }]);
  });

  it('tells a NaN the kernel computed from an element it never wrote', () => {
    const out = right();
    out[5] = Number.NaN;
    const v = verifyElementwise(out, ref, 'fp32');
    expect(v).toMatchObject({ ok: false, mismatchCount: 1, neverWritten: 0, maxRelativeError: null });
    expect(v.mismatches[0]).toMatchObject({ index: 5, got: null, unwritten: false });
  });

  it('reads the poison from the bits of fp32 and fp64 outputs alike', () => {
    const f32 = new Float32Array(3);
    const f64 = new Float64Array(3);
    poison(f32, 1);
    poison(f64, 2);
    f64[0] = Number.NaN;
    expect([0, 1, 2].map(poisonedAt(f32))).toEqual([false, true, false]);
    expect([0, 1, 2].map(poisonedAt(f64))).toEqual([false, false, true]);
  });

  it('keeps its largest relative error a number while every element checked has one', () => {
    const out = right();
    out[7] = (out[7] ?? 0) * (1 + 1e-3);
    const v = verifyElementwise(out, ref, 'fp32');
    expect(v.mismatchCount).toBe(1);
    expect(v.maxRelativeError).toBeCloseTo(1e-3, 6);
  });

  it('lists the first 10 mismatches in index order and counts all of them, without keeping millions', () => {
    const out = new Float32Array(2_000_000).fill(1);
    const v = verifyElementwise(out, () => 2, 'fp32');
    expect(v.mismatchCount).toBe(2_000_000);
    expect(v.mismatches.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('fp64 is held to 1e-12: an fp32-rounded result fails', () => {
    const x64 = Float64Array.from(x);
    const exact = (i: number): number => (x64[i] ?? 0) / 3;
    const rounded = Float64Array.from({ length: x64.length }, (_, i) => Math.fround(exact(i)));
    expect(verifyElementwise(rounded, exact, 'fp64').ok).toBe(false);
    expect(verifyElementwise(Float64Array.from({ length: x64.length }, (_, i) => exact(i)), exact, 'fp64').ok).toBe(true);
  });

  it('a transpose is compared exactly, and a mismatch names its row and column', () => {
    const n = 5;
    const input = Float32Array.from({ length: n * n }, (_, i) => i);
    const expected = (i: number): number => input[(i % n) * n + Math.floor(i / n)] ?? Number.NaN;
    const out = Float32Array.from({ length: n * n }, (_, i) => expected(i));
    expect(verifyExact(out, expected, { rows: n, cols: n }).ok).toBe(true);
    out[2 * n + 3] = 0;
    const v = verifyExact(out, expected, { rows: n, cols: n });
    expect(v.mismatches[0]).toMatchObject({ index: 13, row: 2, col: 3, got: 0, expected: 17 });
  });

  it('a sum of whole numbers is exact: off by one is a failure', () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => i % 4);
    expect(verifySum(Float32Array.of(1500), values).ok).toBe(true);
    expect(verifySum(Float32Array.of(1499), values)).toMatchObject({ ok: false, checked: 1, mismatchCount: 1, neverWritten: 0, mismatches: [{ index: 0, got: 1499, expected: 1500 }] });
  });

  describe('transpose', () => {
    // 70 × 130: not a multiple of the 64 × 64 blocks the clean case walks in, nor square.
    const rows = 70;
    const cols = 130;
    const input = random(rows * cols, 5);
    const transposed = (): Float32Array => {
      const out = new Float32Array(rows * cols);
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = input[r * cols + c] ?? 0;
      return out;
    };

    it('passes a right transpose of every element, exactly', () => {
      expect(verifyTranspose(transposed(), input, rows, cols)).toMatchObject({ ok: true, checked: rows * cols, mismatchCount: 0, neverWritten: 0 });
    });

    it('catches one wrong element in the last, partial block, with its place in the output', () => {
      const out = transposed();
      // Output row 129 (input column 129), column 69 (input row 69): the very last element.
      out[129 * rows + 69] = 42;
      const v = verifyTranspose(out, input, rows, cols);
      expect(v).toMatchObject({ ok: false, mismatchCount: 1 });
      expect(v.mismatches[0]).toMatchObject({ index: 129 * rows + 69, row: 129, col: 69, got: 42, expected: input[69 * cols + 129] });
    });

    it('takes the input\'s layout for what it is: the input itself handed back is wrong', () => {
      expect(verifyTranspose(input.slice(), input, rows, cols).ok).toBe(false);
    });
  });

  describe('SGEMM, sampled', () => {
    const n = 64;
    const a = random(n * n, 3);
    const b = random(n * n, 4);
    const product = (): Float32Array => {
      const c = new Float32Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < n; p++) s = Math.fround(s + Math.fround((a[i * n + p] ?? 0) * (b[p * n + j] ?? 0)));
        c[i * n + j] = s;
      }
      return c;
    };

    it('passes an fp32 product computed in fp32', () => {
      const v = verifySgemm({ a, b, c: product(), m: n, n, k: n, samples: 100, seed: 9 });
      expect(v.ok).toBe(true);
      // The last row and column (127 elements) and up to 100 more.
      expect(v.checked).toBeGreaterThan(127);
    });

    it('catches an unwritten last tile even where no sample falls, with its row and column, counted apart from the elements checked', () => {
      const right = product();
      const c = right.slice();
      // A kernel whose grid misses columns 48…62 of rows 0…15 (not the last row, not the last column).
      for (let i = 0; i < 16; i++) for (let j = 48; j < 63; j++) poison(c, i * n + j);
      const v = verifySgemm({ a, b, c, m: n, n, k: n, samples: 0, seed: 9 });
      expect(v.ok).toBe(false);
      // The last row and the last column (127 elements) were compared, and were right; 240 others never written.
      expect(v).toMatchObject({ checked: 2 * n - 1, mismatchCount: 0, neverWritten: 16 * 15 });
      expect(v.mismatches[0]).toMatchObject({ index: 48, row: 0, col: 48, got: null, unwritten: true });
      expect(v.mismatches[0]?.expected).toBeCloseTo(right[48] ?? 0, 5);
    });

    it('never counts more wrong than checked, however much of C was left unwritten (issue 24: 16542648 of 12285)', () => {
      const c = product();
      // All but the last row and the last column left as the poison: the shared-tiles kernel under a 16×16 block.
      for (let i = 0; i < n - 1; i++) for (let j = 0; j < n - 1; j++) poison(c, i * n + j);
      const v = verifySgemm({ a, b, c, m: n, n, k: n, samples: 100, seed: 9 });
      expect(v.ok).toBe(false);
      expect(v.mismatchCount).toBeLessThanOrEqual(v.checked);
      expect(v.neverWritten).toBe((n - 1) * (n - 1));
      expect(v.maxRelativeError === null || Number.isFinite(v.maxRelativeError)).toBe(true);
      expect(JSON.stringify(v)).not.toMatch(/e\+308/);
    });

    it('counts a NaN the kernel wrote outside the samples as checked and wrong, not as never written', () => {
      const c = product();
      c[3] = Number.NaN;
      const v = verifySgemm({ a, b, c, m: n, n, k: n, samples: 0, seed: 9 });
      expect(v).toMatchObject({ ok: false, checked: 2 * n, mismatchCount: 1, neverWritten: 0, maxRelativeError: null });
      expect(v.mismatches[0]).toMatchObject({ index: 3, got: null, unwritten: false });
    });

    it('compares the crossings of √samples random rows and as many random columns, all of them, besides the last row and column', () => {
      const c = product();
      // Every element off the last row and column wrong by far more than the tolerance.
      for (let i = 0; i < n - 1; i++) for (let j = 0; j < n - 1; j++) c[i * n + j] = (c[i * n + j] ?? 0) + 0.5;
      const v = verifySgemm({ a, b, c, m: n, n, k: n, samples: 100, seed: 9 });
      expect(v).toMatchObject({ ok: false, samples: 100, checked: 2 * n - 1 + 100, mismatchCount: 100, neverWritten: 0 });
      // Another seed draws other rows and columns.
      const rowsOf = (seed: number): number[] => verifySgemm({ a, b, c, m: n, n, k: n, samples: 100, seed }).mismatches.map((x) => x.row ?? -1);
      expect(rowsOf(9)).not.toEqual(rowsOf(10));
    });

    it('catches a wrong value in the last column', () => {
      const c = product();
      c[10 * n + n - 1] = (c[10 * n + n - 1] ?? 0) + 0.5;
      const v = verifySgemm({ a, b, c, m: n, n, k: n, samples: 0, seed: 9 });
      expect(v.mismatches[0]).toMatchObject({ row: 10, col: n - 1 });
    });
  });
});
