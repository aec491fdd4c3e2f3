// The device inspector on a real GPU: attributes, peaks with their arithmetic, libraries, telemetry.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { cudaInventory, devices, telemetry } from '../../native/index.ts';
import { skipWithoutGpu } from './helpers.ts';

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
});
