// Device and pinned buffers: seeded fills identical to the host's, reads and writes, copies in every direction
// (sync and async, pinned and pageable), out-of-memory recovery.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { benchmark, copyBuffer, createDeviceBuffer, createHostBuffer, createPinnedBuffer, cudaInventory, poison, poisonAsync } from '../../native/index.ts';
import type { DType } from '../../native/index.ts';
import { DEVICE, Owned, assertCode, freshSeed, skipWithoutGpu } from './helpers.ts';

const DTYPES: DType[] = ['fp64', 'fp32', 'fp16', 'bf16', 'int8'];

describe('device memory', { skip: skipWithoutGpu }, () => {
  it('a device fill holds exactly what a host fill with the same seed holds, for every dtype', () => {
    const owned = new Owned();
    try {
      for (const dtype of DTYPES) {
        const seed = freshSeed();
        const n = 1_000_003;
        const range = dtype === 'int8' ? { low: -100, high: 100 } : { low: -3, high: 5 };
        const dev = owned.add(createDeviceBuffer(dtype, n, DEVICE)).fillRandom(seed, range);
        const host = owned.add(createHostBuffer(dtype, n)).fillRandom(seed, range);
        const d = dev.read();
        const h = host.read();
        let differ = -1;
        for (let i = 0; i < n && differ < 0; i++) if (!Object.is(d[i], h[i])) differ = i;
        assert.equal(differ, -1, `${dtype} seed ${seed}: element ${differ} is ${d[differ]} on the device, ${h[differ]} on the host`);
      }
    } finally {
      owned.free();
    }
  });

  it('fills and poisons off the JS thread as on it: pinned and device buffers hold what a host fill holds', async () => {
    const owned = new Owned();
    try {
      for (const dtype of DTYPES) {
        const seed = freshSeed();
        const n = 2_000_003;
        const range = dtype === 'int8' ? { low: -100, high: 100 } : { low: -3, high: 5 };
        const host = owned.add(createHostBuffer(dtype, n)).fillRandom(seed, range).read();
        for (const made of [owned.add(createPinnedBuffer(dtype, n)), owned.add(createDeviceBuffer(dtype, n, DEVICE))]) {
          const got = (await made.fillRandomAsync(seed, range)).read();
          let differ = -1;
          for (let i = 0; i < n && differ < 0; i++) if (!Object.is(got[i], host[i])) differ = i;
          assert.equal(differ, -1, `${dtype} ${made.location} seed ${seed}: element ${differ} is ${got[differ]}, the host's ${host[differ]}`);
          await poisonAsync(made);
          if (dtype !== 'int8') assert.ok(made.toFloat64(0, 1000).every(Number.isNaN), `${dtype} ${made.location}: poisoned`);
        }
      }
    } finally {
      owned.free();
    }
  });

  it('writes and reads ranges, and poison() makes every float a NaN', () => {
    const owned = new Owned();
    try {
      const buf = owned.add(createDeviceBuffer('fp32', 100, DEVICE));
      poison(buf);
      assert.ok(buf.read().every(Number.isNaN));
      buf.write(new Float32Array([1.5, -2, 3]), 10);
      assert.deepEqual(Array.from(buf.read(9, 5)).map((v) => (Number.isNaN(v) ? 'NaN' : v)), ['NaN', 1.5, -2, 3, 'NaN']);
      const half = owned.add(createDeviceBuffer('fp16', 4, DEVICE));
      poison(half);
      assert.ok(Array.from(half.toFloat64()).every(Number.isNaN));
    } finally {
      owned.free();
    }
  });

  it('copies between host, pinned and device memory, sync and async, byte for byte', async () => {
    const owned = new Owned();
    try {
      const n = 3_000_017;
      const src = owned.add(createHostBuffer('fp32', n)).fillRandom(freshSeed());
      const expected = src.read();
      for (const mode of ['sync', 'async'] as const) {
        const pinned = owned.add(createPinnedBuffer('fp32', n));
        const dev = owned.add(createDeviceBuffer('fp32', n, DEVICE));
        const dev2 = owned.add(createDeviceBuffer('fp32', n, DEVICE));
        const back = owned.add(createHostBuffer('fp32', n));
        poison(back);
        await copyBuffer(pinned, src, { mode }); // host → pinned
        await copyBuffer(dev, pinned, { mode }); // pinned → device
        await copyBuffer(dev2, dev, { mode }); // device → device
        await copyBuffer(back, dev2, { mode }); // device → pageable
        assert.deepEqual(back.read(), expected, `${mode} round trip`);
        assert.equal(pinned.location, 'pinned');
      }
      await assertCode(() => copyBuffer(owned.add(createDeviceBuffer('fp32', 5, DEVICE)), src), 'LENGTH_MISMATCH');
    } finally {
      owned.free();
    }
  });

  it('the timed copy op moves the right bytes in every direction at a plausible rate', async () => {
    const owned = new Owned();
    try {
      const n = 16 * 2 ** 20; // 64 MiB of fp32
      const pageable = owned.add(createHostBuffer('fp32', n)).fillRandom(freshSeed());
      const pinned = owned.add(createPinnedBuffer('fp32', n)).fillRandom(freshSeed());
      const dev = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      const dev2 = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      const back = owned.add(createPinnedBuffer('fp32', n));
      const cases = [
        { src: pageable, dst: dev, mode: 'sync' },
        { src: pinned, dst: dev, mode: 'async' },
        { src: dev, dst: dev2, mode: 'async' },
        { src: dev2, dst: back, mode: 'async' },
      ] as const;
      for (const { src, dst, mode } of cases) {
        poison(dst);
        const r = await benchmark({ device: DEVICE, op: 'copy', mode, src, dst }, { warmup: 1, repeats: 3 });
        assert.ok(r.deviceMs && r.deviceMs.every((ms) => ms > 0), r.implementation);
        const gbs = (src.byteLength / Math.min(...r.deviceMs)) / 1e6;
        assert.ok(gbs > 1, `${r.implementation}: ${gbs.toFixed(2)} GB/s`);
        assert.deepEqual(dst.read(n - 1000, 1000), src.read(n - 1000, 1000), r.implementation);
      }
    } finally {
      owned.free();
    }
  });

  // Under compute-sanitizer the deliberately failed cudaMalloc would be reported as an API error.
  const underSanitizer = process.env.GPU_LAB_SANITIZER === '1' ? 'the deliberate OOM is left out under compute-sanitizer' : false;
  it('asking for twice the device memory fails with CUDA_ERROR_OUT_OF_MEMORY, then allocation works again', { skip: underSanitizer }, async () => {
    const total = cudaInventory().devices[0]?.memoryTotalBytes ?? 0;
    const err = await assertCode(() => createDeviceBuffer('int8', 2 * total, DEVICE), 'CUDA_ERROR_OUT_OF_MEMORY', [String(2 * total), 'free']);
    assert.match(err.message, /cuda:0/);
    const owned = new Owned();
    try {
      const a = owned.add(createDeviceBuffer('fp32', 1 << 20, DEVICE)).fillRandom(7);
      const host = owned.add(createHostBuffer('fp32', 1 << 20)).fillRandom(7);
      assert.deepEqual(a.read(0, 64), host.read(0, 64));
      const r = await benchmark({ device: DEVICE, op: 'empty' }, { repeats: 5 });
      assert.equal(r.hostMs.length, 5);
    } finally {
      owned.free();
    }
  });

  it('a freed device buffer is refused with BUFFER_FREED', async () => {
    const buf = createDeviceBuffer('fp32', 16, DEVICE);
    buf.free();
    await assertCode(() => buf.read(), 'BUFFER_FREED');
    await assertCode(() => benchmark({ device: DEVICE, op: 'exp', path: 'resident', x: buf, out: buf }), 'BUFFER_FREED');
  });
});
