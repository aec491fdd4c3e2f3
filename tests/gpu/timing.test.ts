// The three clocks and cancellation on a real GPU.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { benchmark, createDeviceBuffer, poison } from '../../native/index.ts';
import type { Clock } from '../../native/index.ts';
import { DEVICE, Owned, skipWithoutGpu, twins } from './helpers.ts';

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

describe('CUDA clocks', { skip: skipWithoutGpu }, () => {
  // A naive SGEMM at 2048 takes milliseconds: long enough to tell queueing from running.
  async function time(clock: Clock) {
    const owned = new Owned();
    try {
      const n = 2048;
      const a = twins(owned, 'fp32', n * n);
      const b = twins(owned, 'fp32', n * n);
      const out = owned.add(createDeviceBuffer('fp32', n * n, DEVICE));
      poison(out);
      return await benchmark({ device: DEVICE, op: 'gemm', variant: 'naive', clock, a: a.dev, b: b.dev, out, m: n, n, k: n }, { warmup: 2, repeats: 9 });
    } finally {
      owned.free();
    }
  }

  // Runs first in this file, so that the exp kernel is not loaded yet: its first launch loads it, which used to
  // wait behind the spinning hold kernel until the hold's 50 ms timeout.
  it('events, no warm-up: even the first sample of a 1M-element exp takes well under 5 ms', async () => {
    const owned = new Owned();
    try {
      const n = 1 << 20;
      const x = twins(owned, 'fp32', n, { low: -4, high: 4 });
      const out = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      const r = await benchmark({ device: DEVICE, op: 'exp', path: 'resident', x: x.dev, out }, { warmup: 0, repeats: 3 });
      for (const ms of r.hostMs) assert.ok(ms < 5, `samples ${r.hostMs.map((v) => v.toFixed(3)).join(', ')} ms`);
      assert.ok(r.deviceMs?.every((ms) => ms < 5));
    } finally {
      owned.free();
    }
  });

  it('events: device time from events, host time at least as long', async () => {
    const r = await time('events');
    assert.ok(r.deviceMs);
    assert.ok(median(r.deviceMs) > 0.5, `kernel ${median(r.deviceMs)} ms`);
    assert.ok(median(r.hostMs) >= median(r.deviceMs) * 0.99);
  });

  it('host: end-to-end host time after synchronising, no device time', async () => {
    const r = await time('host');
    assert.equal(r.deviceMs, null);
    assert.ok(median(r.hostMs) > 0.5);
  });

  it('host-nosync: the host clock sees only the launch, while the events still see the kernel', async () => {
    const r = await time('host-nosync');
    assert.ok(r.deviceMs);
    const launch = median(r.hostMs);
    const kernel = median(r.deviceMs);
    assert.ok(launch * 10 < kernel, `launch ${launch} ms should be far below the kernel's ${kernel} ms`);
  });

  it('host: a synchronous 256 MiB device → device copy is timed to its end, not to cudaMemcpy returning', async () => {
    const owned = new Owned();
    try {
      const n = 64 * 2 ** 20; // 256 MiB of fp32
      const src = twins(owned, 'fp32', n).dev;
      const dst = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      const copy = async (clock: Clock) => benchmark({ device: DEVICE, op: 'copy', mode: 'sync', clock, src, dst }, { warmup: 2, repeats: 9 });
      const events = await copy('events');
      const host = await copy('host');
      assert.ok(events.deviceMs);
      const copyMs = median(events.deviceMs);
      // 512 MB moved (read + write) at a few TB/s: a tenth of a millisecond or more; cudaMemcpy returns in µs.
      assert.ok(median(host.hostMs) >= 0.9 * copyMs, `host ${median(host.hostMs)} ms against events ${copyMs} ms`);
    } finally {
      owned.free();
    }
  });

  it('an empty kernel: launch + synchronise costs microseconds, not milliseconds', async () => {
    const r = await benchmark({ device: DEVICE, op: 'empty', clock: 'host' }, { warmup: 100, repeats: 2000 });
    assert.ok(median(r.hostMs) < 0.1, `launch + sync ${median(r.hostMs)} ms`);
  });

  it('cancels between samples and the device keeps working', async () => {
    const owned = new Owned();
    try {
      const n = 1 << 24;
      const x = twins(owned, 'fp64', n);
      const y = twins(owned, 'fp64', n);
      const out = owned.add(createDeviceBuffer('fp64', n, DEVICE));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      const started = performance.now();
      await assert.rejects(
        async () => benchmark({ device: DEVICE, op: 'vector-function', variant: 'unfused', path: 'resident', x: x.dev, y: y.dev, out, a: 1, b: 2, c: 3 }, { repeats: 10_000_000, signal: controller.signal }),
        (err: Error & { code?: string; details?: { samples?: number } }) => err.code === 'CANCELLED' && (err.details?.samples ?? 0) > 0,
      );
      assert.ok(performance.now() - started < 3000);
      const r = await benchmark({ device: DEVICE, op: 'vector-function', variant: 'fused', path: 'resident', x: x.dev, y: y.dev, out, a: 1, b: 2, c: 3 }, { repeats: 3 });
      assert.equal(r.hostMs.length, 3);
    } finally {
      owned.free();
    }
  });
});
