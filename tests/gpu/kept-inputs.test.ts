// The engine's seeded host inputs kept between points (main/host/kept-inputs.ts), on the GPU's series: each op that
// reads a host input (the copies from pageable and pinned memory, sync and async; add and the GEMM with the copies
// timed) passes its check, leaves the input as its fill wrote it, and a second point of the same seed and size
// measures on it without filling it again.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { releaseInputs } from '../../main/host/kept-inputs.ts';
import { measure } from '../../main/host/ops/index.ts';
import { ElementBuffer, createHostBuffer } from '../../native/index.ts';
import type { FillRange } from '../../native/index.ts';
import { DEVICE, skipWithoutGpu } from './helpers.ts';

const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };

interface Fill {
  buffer: ElementBuffer;
  seed: number;
  range: FillRange | undefined;
}

// The host fills `work` asks for, counted; the prototype's own fill again after.
async function fillsOf(work: () => Promise<unknown>): Promise<Fill[]> {
  const fills: Fill[] = [];
  const original = Object.getOwnPropertyDescriptor(ElementBuffer.prototype, 'fillRandomAsync');
  const fill = ElementBuffer.prototype.fillRandomAsync;
  ElementBuffer.prototype.fillRandomAsync = function (this: ElementBuffer, seed: number, range?: FillRange) {
    if (this.location !== 'device') fills.push({ buffer: this, seed, range });
    return fill.call(this, seed, range);
  };
  try {
    await work();
  } finally {
    if (original) Object.defineProperty(ElementBuffer.prototype, 'fillRandomAsync', original);
  }
  return fills;
}

describe('kept inputs on the GPU\'s series', { skip: skipWithoutGpu }, () => {
  afterEach(() => releaseInputs());

  const points: Record<string, unknown>[] = [
    { op: 'copy', direction: 'h2d', hostMemory: 'pageable', mode: 'sync', bytes: 3_000_017 },
    { op: 'copy', direction: 'h2d', hostMemory: 'pageable', mode: 'async', bytes: 3_000_017 },
    { op: 'copy', direction: 'h2d', hostMemory: 'pinned', mode: 'sync', bytes: 3_000_017 },
    { op: 'copy', direction: 'h2d', hostMemory: 'pinned', mode: 'async', bytes: 3_000_017 },
    { op: 'add', variant: 'kernel', elements: 2_000_003, path: 'with-copies' },
    { op: 'gemm', dtype: 'fp32', variant: 'cublas', m: 700, n: 500, k: 300, path: 'with-copies' },
  ];
  for (const fields of points) {
    it(`${JSON.stringify(fields)}: checked right, its inputs untouched, the second point fills none`, async () => {
      const m = MEASUREMENT.parse({ device: DEVICE, warmup: 1, repeats: 3, budgetSeconds: 0.2, seed: 5, ...fields });
      let passed: boolean | undefined;
      const first = await fillsOf(async () => {
        passed = (await measure(m, ctx)).verification?.passed;
      });
      assert.equal(passed, true);
      assert.ok(first.length > 0, 'its host inputs are filled once');
      for (const { buffer, seed, range } of first) {
        assert.equal(buffer.freed, false, 'kept after its point');
        const fresh = createHostBuffer(buffer.dtype, buffer.length).fillRandom(seed, range);
        assert.deepEqual(buffer.read(), fresh.read(), 'as its fill wrote it');
        fresh.free();
      }
      const second = await fillsOf(async () => {
        passed = (await measure(m, ctx)).verification?.passed;
      });
      assert.equal(passed, true);
      assert.equal(second.length, 0, 'the second point measures on the kept inputs');
    });
  }
});
