// What the compute host can run on, described for the device inspector and stored with every run: the CPU, the
// CUDA devices (or why there are none), and the versions of everything that produces numbers.
import type { DeviceList, DeviceSummary } from '../common/devices.ts';
import { blasInfo, buildInfo, cpuInfo } from '../../native/index.ts';

export interface EnvironmentSnapshot {
  devices: DeviceList;
  versions: Record<string, string>;
  pid: number;
}

function cpuDevice(): DeviceSummary {
  const cpu = cpuInfo();
  return {
    id: 'cpu',
    kind: 'cpu',
    name: cpu.model,
    // The addon does not read the CPU clock, so there is no honest theoretical peak to divide by.
    peakGflopsFp32: null,
    peakGflopsFp64: null,
    peakMemoryGBps: null,
    memoryBytes: cpu.memoryTotalBytes,
    details: {
      logicalCores: cpu.logicalCores,
      physicalCores: cpu.physicalCores,
      simd: cpu.simd.join(' '),
      l2CacheBytes: cpu.l2CacheBytes,
      l3CacheBytes: cpu.l3CacheBytes,
    },
  };
}

export function environmentSnapshot(): EnvironmentSnapshot {
  const build = buildInfo();
  const blas = blasInfo();
  const blasText = blas.available ? `${blas.name ?? 'BLAS'} (${blas.library ?? '?'})` : `built-in blocked GEMM (no system BLAS: ${blas.reason ?? 'not found'})`;
  const devices: DeviceSummary[] = [cpuDevice()];
  const cudaReason = build.cuda ? 'the CUDA devices are not wired into the engine yet' : build.cudaReason ?? 'built without CUDA';
  return {
    devices: { devices, cudaReason, blas: blasText },
    versions: {
      node: process.versions.node,
      napi: String(build.napiVersion),
      compiler: build.compiler,
      cudaBuild: build.cuda ? 'yes' : 'no',
      blas: blasText,
      platform: `${process.platform}-${process.arch}`,
    },
    pid: process.pid,
  };
}
