// A device buffer's elements at scattered indices, gathered on the GPU and brought back in one copy
// (ElementBuffer.toFloat64At, native/src/buffer.cc, shaders/cuda/gather.cu): exactly what a full read gives at those
// indices, for every dtype, poisoned (NaN) and zeroed bytes included; past 2³² elements too; an index outside the
// buffer refused with the index, the value and the length named, the buffer still usable after. Prints what the
// engine's sampled check of 10⁸ fp32 elements takes read in spans and gathered (a figure, not asserted).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { createDeviceBuffer, poison, zeroFill } from '../../native/index.ts';
import type { DType } from '../../native/index.ts';
import { readAt, sampleIndices } from '../../main/host/verify.ts';
import { DEVICE, Owned, assertCode, freshSeed, skipWithoutGpu } from './helpers.ts';

const DTYPES: DType[] = ['fp64', 'fp32', 'fp16', 'bf16', 'int8'];

// `count` indices drawn from [0, n) by a seeded generator, with the first, the last and a repeat among them.
function scattered(n: number, count: number, seed: number): number[] {
  let state = seed >>> 0;
  const out = Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * n);
  });
  return [...out, 0, n - 1, out[0] ?? 0];
}

function firstDifference(got: ArrayLike<number>, expected: ArrayLike<number>): number {
  for (let i = 0; i < expected.length; i++) if (!Object.is(got[i], expected[i])) return i;
  return got.length === expected.length ? -1 : expected.length;
}

describe('gathering a device buffer\'s elements', { skip: skipWithoutGpu }, () => {
  const owned = new Owned();
  after(() => owned.free());

  it('gives, for every dtype, exactly what a full read gives at random indices', () => {
    for (const dtype of DTYPES) {
      const seed = freshSeed();
      const n = 10_000_019;
      const range = dtype === 'int8' ? { low: -100, high: 100 } : { low: -3, high: 5 };
      const dev = owned.add(createDeviceBuffer(dtype, n, DEVICE)).fillRandom(seed, range);
      const all = dev.toFloat64();
      const indices = scattered(n, 4096, seed);
      const got = dev.toFloat64At(indices);
      const at = firstDifference(got, indices.map((i) => all[i] ?? Number.NaN));
      assert.equal(at, -1, `${dtype} seed ${seed}: index ${indices[at]} gathered ${got[at]}, a full read gives ${all[indices[at] ?? 0]}`);
      // Through the engine's check's reader, which gathers what lies scattered.
      const read = readAt(dev, indices);
      assert.equal(firstDifference(read, got), -1, `${dtype} seed ${seed}: readAt differs from the gather`);
    }
  });

  it('keeps what the bytes hold: a poisoned element comes back NaN, a zeroed one zero', () => {
    for (const dtype of ['fp64', 'fp32', 'fp16', 'bf16'] as const) {
      const dev = owned.add(createDeviceBuffer(dtype, 100_003, DEVICE));
      poison(dev);
      const indices = scattered(dev.length, 500, freshSeed());
      assert.ok(Array.from(dev.toFloat64At(indices)).every(Number.isNaN), `${dtype}: poisoned elements gathered as NaN`);
      zeroFill(dev);
      const zeros = dev.toFloat64At(indices);
      assert.ok(Array.from(zeros).every((v) => Object.is(v, 0)), `${dtype}: zeros`);
    }
  });

  it('reads past 2³² elements: a 64-bit index reaches the end of a 4 GiB int8 buffer', () => {
    const seed = freshSeed();
    const n = 2 ** 32 + 4099;
    const dev = createDeviceBuffer('int8', n, DEVICE).fillRandom(seed, { low: -100, high: 100 });
    try {
      const tail = dev.toFloat64(n - 8192, 8192);
      const indices = [n - 1, 2 ** 32, 2 ** 32 + 1, n - 8192, n - 4100];
      const got = dev.toFloat64At(indices);
      assert.deepEqual(Array.from(got), indices.map((i) => tail[i - (n - 8192)]), `seed ${seed}`);
    } finally {
      dev.free();
    }
  });

  it('refuses an index outside the buffer with a clear error, and the buffer still reads after', async () => {
    const dev = owned.add(createDeviceBuffer('fp32', 1000, DEVICE)).fillRandom(freshSeed());
    await assertCode(() => dev.toFloat64At([0, 1000]), 'INVALID_ARGUMENT', ['`indices[1]`', 'from 0 to 999', '1000']);
    await assertCode(() => dev.toFloat64At([-1]), 'INVALID_ARGUMENT', ['`indices[0]`', '-1']);
    // Past the facade, the addon checks before anything reaches the GPU: one past the end would read another
    // allocation's memory there.
    await assertCode(() => dev.raw.readFloat64At(new Float64Array([999, 1000])), 'INVALID_ARGUMENT', ['`indices[1]`', 'from 0 to 999', '1000']);
    await assertCode(() => dev.raw.readFloat64At(new Float64Array([2 ** 40])), 'INVALID_ARGUMENT', ['`indices[0]`']);
    assert.deepEqual(Array.from(dev.toFloat64At([999, 0])), [dev.toFloat64(999, 1)[0], dev.toFloat64(0, 1)[0]]);
  });

  it('prints what the engine\'s sampled check reads of 10⁸ fp32 elements take, in spans and gathered', () => {
    const n = 100_000_000;
    const dev = owned.add(createDeviceBuffer('fp32', n, DEVICE)).fillRandom(freshSeed());
    const samples = sampleIndices(n, 4096);
    const spansOnly = { length: dev.length, location: dev.location, toFloat64: (start?: number, count?: number) => dev.toFloat64(start, count) };
    // Once each untimed: the first copy and the first launch pay for setting up.
    readAt(spansOnly, samples.slice(0, 8));
    readAt(dev, samples.slice(0, 8));
    const timed = (read: () => Float64Array): { ms: number; values: Float64Array } => {
      const started = performance.now();
      const values = read();
      return { ms: performance.now() - started, values };
    };
    const spans = timed(() => readAt(spansOnly, samples));
    const gathered = timed(() => readAt(dev, samples));
    assert.equal(firstDifference(gathered.values, spans.values), -1, 'the gathered samples are the spans\' samples');
    console.log(`4096 samples of 10⁸ fp32 elements on ${DEVICE}: ${spans.ms.toFixed(2)} ms read in spans, ${gathered.ms.toFixed(2)} ms gathered`);
  });
});
