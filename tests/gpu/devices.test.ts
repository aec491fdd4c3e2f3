// The device inspector on a real GPU: attributes, peaks with their arithmetic, libraries, telemetry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { loadAddon } from '../../native/addon.ts';
import { benchmark, createDeviceBuffer, createHostBuffer, cudaInventory, devices, telemetry } from '../../native/index.ts';
import type { CudaDevice } from '../../native/index.ts';
import { DEVICE, Owned, assertCode, skipWithoutGpu } from './helpers.ts';

describe('CUDA device inspector', { skip: skipWithoutGpu }, () => {
  it('lists the CPU first, then every CUDA device with its peaks', () => {
    const list = devices();
    assert.equal(list.devices[0]?.id, 'cpu');
    assert.equal(list.cudaReason, null);
    const gpu = list.devices[1];
    assert.ok(gpu, 'a CUDA device entry');
    assert.equal(gpu.id, 'cuda:0');
    assert.ok((gpu.peakMemoryGBps ?? 0) > 100, 'memory bandwidth peak in GB/s');
    assert.ok((gpu.peakGflopsFp32 ?? 0) > 1000, 'FP32 peak in GFLOP/s');
    assert.ok((gpu.peakGflopsFp64 ?? 0) > 0);
    assert.match(String(gpu.details.peakMemoryFormula), /^2 × \d+ MHz × \d+ bit \/ 8 = /);
  });

  it('reports attributes CUDA 13 moved out of cudaDeviceProp, versions and libraries', () => {
    const inv = cudaInventory();
    const d = inv.devices[0];
    assert.ok(d);
    assert.ok(d.smClockMHz > 100 && d.memoryClockMHz > 100, 'clocks from cudaDeviceGetAttribute');
    assert.match(d.uuid, /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.match(d.computeCapability, /^\d+\.\d$/);
    assert.ok(d.memoryFreeBytes > 0 && d.memoryFreeBytes <= d.memoryTotalBytes);
    assert.ok(d.l2CacheBytes > 0 && d.copyEngines > 0);
    assert.match(inv.runtimeVersion ?? '', /^1[23]\.\d$/);
    assert.ok(inv.libraries.cublas.found, `cuBLAS: ${inv.libraries.cublas.reason ?? ''}`);
    assert.ok(inv.libraries.nvrtc.found, `NVRTC: ${inv.libraries.nvrtc.reason ?? ''}`);
    assert.ok(inv.libraries.nvml.found, `NVML: ${inv.libraries.nvml.reason ?? ''}`);
    // NVML may not see the PCIe link inside a virtual machine; then the formula says so.
    assert.ok(d.pcie.currentGeneration === null ? /unknown/.test(d.peaks.pcieGBs.formula) : (d.peaks.pcieGBs.value ?? 0) > 1);
  });

  it('reads telemetry cheaply enough to take one per measured point', () => {
    const t0 = performance.now();
    const t = telemetry('cuda:0');
    const ms = performance.now() - t0;
    assert.equal(t.available, true, t.reason ?? '');
    assert.ok((t.smClockMHz ?? 0) > 0 && (t.memoryClockMHz ?? 0) > 0);
    assert.ok((t.temperatureC ?? 0) > 0 && (t.powerW ?? 0) > 0);
    assert.ok(Array.isArray(t.throttleReasons));
    assert.ok(ms < 50, `one telemetry reading took ${ms.toFixed(1)} ms`);
  });

  it('telemetry of a device this machine lacks is INVALID_ARGUMENT naming `device`, and later calls do not inherit an error', async () => {
    const count = cudaInventory().devices.length;
    const missing: CudaDevice = `cuda:${count}`;
    await assertCode(() => telemetry(missing), 'INVALID_ARGUMENT', ['`device`', missing, `cuda:${count - 1}`]);
    // The addon checks too, for callers that skip the facade.
    const raw = loadAddon() as unknown as { cudaTelemetry(ordinal: number): unknown };
    await assertCode(() => raw.cudaTelemetry(count), 'INVALID_ARGUMENT', ['`device`', missing]);
    // Before the fix, the failed cudaDeviceGetPCIBusId stayed the thread's last error and the next kernel launch
    // (the fill) reported it as cudaErrorInvalidDevice.
    const owned = new Owned();
    try {
      const dev = owned.add(createDeviceBuffer('fp32', 1 << 20, DEVICE)).fillRandom(11);
      const host = owned.add(createHostBuffer('fp32', 1 << 20)).fillRandom(11);
      assert.deepEqual(dev.read(0, 64), host.read(0, 64));
      const out = owned.add(createDeviceBuffer('fp32', 1 << 20, DEVICE));
      const r = await benchmark({ device: DEVICE, op: 'exp', path: 'resident', x: dev, out }, { warmup: 1, repeats: 3 });
      assert.equal(r.hostMs.length, 3);
    } finally {
      owned.free();
    }
  });
});
