// The transfer lab's copies on this machine's real adapter (the suite's title names it and its backend): host→device
// by queue.writeBuffer and by a mapped upload buffer with copyBufferToBuffer, device→host through a mapped staging
// buffer, device→device by copyBufferToBuffer; every byte the check reads equal to its source, at a size within one
// 4 KiB page and at one over a megabyte; timed on the host's clock (no timestamp query sits around a copy), and what
// WebGPU has no such thing as (pinned memory, a copy not waited for, a part of a 4-byte word) refused by name.
import { describe, expect, it } from 'vitest';

import { MEASUREMENT } from '../../../main/common/measurement.ts';
import type { MeasurementInput } from '../../../main/common/measurement.ts';
import { adapterName } from '../../../main/common/webgpu-adapters.ts';
import { measure } from '../../../main/host/ops/index.ts';
import { webgpuAdapters } from '../../../main/host/webgpu/dawn.ts';

const search = await webgpuAdapters();
const adapter = search.adapters[0];
const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };
const copy = (m: Record<string, unknown>): ReturnType<typeof measure> =>
  measure(MEASUREMENT.parse({ device: 'webgpu:0', op: 'copy', hostMemory: 'pageable', mode: 'sync', warmup: 1, repeats: 3, seed: 5, budgetSeconds: 0.2, ...m } as MeasurementInput), ctx);

describe(`WebGPU copies on ${adapter ? `${adapterName(adapter.facts)} through ${adapter.backend}` : 'no adapter'}`, () => {
  it.each([
    ['h2d', 'write-buffer', 'queue.writeBuffer'],
    ['h2d', 'mapped', 'a mapped upload buffer and copyBufferToBuffer'],
    ['d2h', undefined, 'copyBufferToBuffer to a mapped staging buffer'],
    ['d2d', undefined, 'copyBufferToBuffer'],
  ])('%s (%s): every byte checked equals its source, timed on the host clock', async (direction, upload, way) => {
    for (const bytes of [4092, 1_048_580]) {
      const r = await copy({ direction, upload, bytes });
      expect(r.verification).toMatchObject({ passed: true, total: bytes, tolerance: 0 });
      expect(r.implementation).toBe(`${way}, ${bytes} bytes, on ${adapter ? adapterName(adapter.facts) : '?'} through ${adapter?.backend ?? '?'}`);
      expect(r.deviceMs).toBeNull();
      expect(r.clockResolution?.timestamps).toBe('none');
      expect(r.hostMs.every((ms) => ms > 0)).toBe(true);
    }
  });

  it('refuses pinned memory, a copy not waited for and a part of a word, naming each', async () => {
    await expect(copy({ direction: 'h2d', hostMemory: 'pinned', bytes: 4096 })).rejects.toThrow(/WebGPU device \(webgpu:0\) does not run pinned host memory \(WebGPU has none\)/);
    await expect(copy({ direction: 'd2h', mode: 'async', bytes: 4096 })).rejects.toThrow(/does not run a copy it does not wait for/);
    await expect(copy({ direction: 'd2d', bytes: 4094 })).rejects.toThrow(/does not run a copy of 4094 bytes \(WebGPU copies whole 4-byte words\)/);
  });
});
