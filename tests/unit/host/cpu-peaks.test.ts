import { describe, expect, it } from 'vitest';

import { withCpuPeaks } from '../../../main/host/cpu-peaks.ts';
import type { DeviceList } from '../../../main/common/devices.ts';

const list: DeviceList = {
  devices: [
    { id: 'cpu', kind: 'cpu', name: 'this CPU', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: 8e9, details: { physicalCores: 2, logicalCores: 2 } },
    { id: 'cuda:0', kind: 'cuda', name: 'GPU', peakGflopsFp32: 66_908, peakGflopsFp64: 33_454, peakMemoryGBps: 3352, memoryBytes: 80e9, details: {} },
  ],
  cudaReason: null,
  blas: 'OpenBLAS',
};

describe('the CPU\'s peaks on this machine', () => {
  it('are an estimate with its arithmetic, or none with the reason, never a bare blank', () => {
    const [cpu, gpu] = withCpuPeaks(list).devices;
    if (cpu?.details.peakSource === 'estimate') {
      expect(cpu.peakGflopsFp32).toBeGreaterThan(0);
      expect(String(cpu.details.peakFp32Formula)).toMatch(/^estimate: 2 cores × /);
    } else {
      expect(cpu?.peakGflopsFp32).toBeNull();
      expect(String(cpu?.details.peakReason)).toMatch(/^no FLOP peak: /);
    }
    // The GPU's peaks come from its attributes and are left as they are.
    expect(gpu).toEqual(list.devices[1]);
  });
});
