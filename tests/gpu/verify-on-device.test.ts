// The playground's check on the GPU (native/verify-output.ts): for each kind, a right output passes with every element
// counted; one element made wrong is found, counted once, at its index, and listed with its expected value; elements
// left holding the poison are counted as never written. The outputs are made on the host in float64 arithmetic
// (rounded to the output's type) and copied over, so that the device's reference is checked against the host's.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { copyBuffer, createDeviceBuffer, createHostBuffer, poison } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { verifyOnDevice } from '../../native/verify-output.ts';
import { DEVICE, Owned, freshSeed, skipWithoutGpu } from './helpers.ts';

const owned = new Owned();

async function onDevice(host: ElementBuffer): Promise<ElementBuffer> {
  const dev = owned.add(createDeviceBuffer(host.dtype, host.length, DEVICE));
  await copyBuffer(dev, host);
  return dev;
}

function hostOf(dtype: 'fp32' | 'fp64', values: Float64Array): ElementBuffer {
  const b = owned.add(createHostBuffer(dtype, values.length));
  b.write((dtype === 'fp32' ? Float32Array.from(values) : values) as never);
  return b;
}

// Writes `value` at `index` of a device buffer through a one-element host copy.
async function spoil(dev: ElementBuffer, index: number, value: number): Promise<void> {
  const all = hostOf(dev.dtype as 'fp32' | 'fp64', dev.toFloat64());
  all.write((dev.dtype === 'fp32' ? Float32Array.of(value) : Float64Array.of(value)) as never, index);
  await copyBuffer(dev, all);
}

describe('the playground check on the GPU', { skip: skipWithoutGpu }, () => {
  after(() => owned.free());

  for (const dtype of ['fp32', 'fp64'] as const) {
    it(`the polynomial in ${dtype}: a right output passes; a wrong element is found at its index and listed`, async () => {
      const n = 3_000_001;
      const seed = freshSeed();
      const xh = owned.add(createHostBuffer(dtype, n)).fillRandom(seed, { low: -1, high: 1 });
      const yh = owned.add(createHostBuffer(dtype, n)).fillRandom(seed + 1, { low: -1, high: 1 });
      const [a, b, c] = dtype === 'fp32' ? [Math.fround(2), Math.fround(-0.3), Math.fround(1.7)] : [2, -0.3, 1.7];
      const x = xh.toFloat64();
      const y = yh.toFloat64();
      const z = new Float64Array(n);
      for (let i = 0; i < n; i++) z[i] = a * (x[i] ?? 0) * (x[i] ?? 0) + b * (y[i] ?? 0) + c;
      const out = await onDevice(hostOf(dtype, z));
      const check = { kind: 'polynomial', out, x: await onDevice(xh), y: await onDevice(yh), a, b, c, relative: dtype === 'fp32' ? 1e-5 : 1e-12 } as const;
      const right = await verifyOnDevice(check);
      assert.deepEqual({ total: right.total, wrong: right.wrong, unwritten: right.unwritten, firstBad: right.firstBad }, { total: n, wrong: 0, unwritten: 0, firstBad: -1 }, `seed ${seed}`);
      assert.ok(right.maxRelativeError !== null && right.maxRelativeError < (dtype === 'fp32' ? 1e-6 : 1e-15), String(right.maxRelativeError));
      await spoil(out, 2_345_678, 99);
      const wrong = await verifyOnDevice(check);
      assert.equal(wrong.wrong, 1);
      assert.equal(wrong.firstBad, 2_345_678);
      assert.equal(wrong.window.start, 2_345_678);
      assert.equal(wrong.window.bad[0], 1);
      assert.ok(Math.abs((wrong.window.expected[0] ?? 0) - (z[2_345_678] ?? 0)) < 1e-12, `expected ${wrong.window.expected[0]}`);
    });
  }

  it('SAXPY: elements never written are counted, and the first of them listed as such', async () => {
    const n = 1 << 20;
    const xh = owned.add(createHostBuffer('fp32', n)).fillRandom(freshSeed(), { low: -1, high: 1 });
    const yh = owned.add(createHostBuffer('fp32', n)).fillRandom(freshSeed(), { low: -1, high: 1 });
    const a = Math.fround(2.5);
    const x = xh.toFloat64();
    const y = yh.toFloat64();
    const out = await onDevice(hostOf('fp32', Float64Array.from(x, (v, i) => a * v + (y[i] ?? 0))));
    const check = { kind: 'saxpy', out, x: await onDevice(xh), y: await onDevice(yh), a, relative: 1e-5 } as const;
    assert.equal((await verifyOnDevice(check)).wrong, 0);
    poison(out);
    const none = await verifyOnDevice(check);
    assert.deepEqual({ wrong: none.wrong, unwritten: none.unwritten, firstBad: none.firstBad }, { wrong: n, unwritten: n, firstBad: 0 });
    assert.equal(none.window.unwritten[0], 1);
    assert.equal(none.maxRelativeError, null);
  });

  it('the transpose, exactly; the reduction\'s total, exactly', async () => {
    const rows = 1000;
    const cols = 700;
    const inh = owned.add(createHostBuffer('fp32', rows * cols)).fillRandom(freshSeed(), { low: -1, high: 1 });
    const input = inh.toFloat64();
    const t = new Float64Array(rows * cols);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = input[r * cols + c] ?? 0;
    const out = await onDevice(hostOf('fp32', t));
    const check = { kind: 'transpose', out, input: await onDevice(inh), rows, cols } as const;
    assert.equal((await verifyOnDevice(check)).wrong, 0);
    await spoil(out, 5 * rows + 3, (t[5 * rows + 3] ?? 0) + 2 ** -20);
    const off = await verifyOnDevice(check);
    assert.deepEqual({ wrong: off.wrong, firstBad: off.firstBad }, { wrong: 1, firstBad: 5 * rows + 3 });

    const xs = hostOf('fp32', Float64Array.from({ length: 1 << 23 }, (_, i) => i % 4));
    const total = (3 * (1 << 23)) / 2;
    const sumOut = await onDevice(hostOf('fp32', Float64Array.of(total)));
    const sum = { kind: 'sum', out: sumOut, x: await onDevice(xs) } as const;
    assert.equal((await verifyOnDevice(sum)).wrong, 0);
    await spoil(sumOut, 0, total - 1);
    const less = await verifyOnDevice(sum);
    assert.deepEqual({ wrong: less.wrong, expected: less.window.expected[0] }, { wrong: 1, expected: total });
  });

  it('the SGEMM against cuBLAS\'s DGEMM: a right product passes, one entry off by a few RMS is found', async () => {
    const [m, n, k] = [300, 257, 500];
    const ah = owned.add(createHostBuffer('fp32', m * k)).fillRandom(freshSeed(), { low: -1, high: 1 });
    const bh = owned.add(createHostBuffer('fp32', k * n)).fillRandom(freshSeed(), { low: -1, high: 1 });
    const A = ah.toFloat64();
    const B = bh.toFloat64();
    const C = new Float64Array(m * n);
    for (let i = 0; i < m; i++) for (let p = 0; p < k; p++) for (let j = 0; j < n; j++) C[i * n + j] = (C[i * n + j] ?? 0) + (A[i * k + p] ?? 0) * (B[p * n + j] ?? 0);
    const out = await onDevice(hostOf('fp32', C));
    const relative = 8 * Math.sqrt(k) * 2 ** -24;
    const check = { kind: 'gemm', out, a: await onDevice(ah), b: await onDevice(bh), m, n, k, relative } as const;
    const right = await verifyOnDevice(check);
    assert.equal(right.wrong, 0, JSON.stringify(right));
    await spoil(out, 77 * n + 200, (C[77 * n + 200] ?? 0) + 0.05 * right.rms);
    const off = await verifyOnDevice(check);
    assert.deepEqual({ wrong: off.wrong, firstBad: off.firstBad }, { wrong: 1, firstBad: 77 * n + 200 });
  });
});
