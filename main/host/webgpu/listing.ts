// The WebGPU adapters as devices of the device list (common/devices.ts): "webgpu:0", … after the CPU and the CUDA
// devices, with what WebGPU tells of each (vendor, architecture, description, backend, limits, features), whether it
// is a program on the CPU, and peaks from the table of known adapters (common/webgpu-adapters.ts) or the reason there
// are none. Where there is no adapter the list says why (webgpuReason), and every other device is listed as before.
import type { DeviceList, DeviceSummary } from '../../common/devices.ts';
import { adapterLockKey, adapterName, adapterPeaks, isNvidiaAdapter, isSoftwareAdapterFacts } from '../../common/webgpu-adapters.ts';
import { webgpuAdapters } from './dawn.ts';
import type { FoundAdapter } from './dawn.ts';

// The limits a measurement is bound by, shown with the adapter; the rest WebGPU reports stay out of the list.
const SHOWN_LIMITS = ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupSizeX', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupsPerDimension', 'maxComputeWorkgroupStorageSize'] as const;

// From what WebGPU told of the adapter alone (not the adapter itself), so that a test can list one this machine lacks.
export function adapterDevice(a: Omit<FoundAdapter, 'adapter'>): DeviceSummary {
  const peaks = adapterPeaks(a.facts);
  const software = isSoftwareAdapterFacts(a.facts);
  const limits = Object.fromEntries(SHOWN_LIMITS.flatMap((key) => (a.limits[key] === undefined ? [] : [[`limit.${key}`, a.limits[key]]])));
  return {
    id: a.id,
    kind: 'webgpu',
    name: adapterName(a.facts),
    peakGflopsFp32: peaks.fp32Gflops.value,
    // WGSL has no f64.
    peakGflopsFp64: null,
    peakMemoryGBps: peaks.memoryGBps.value,
    // WebGPU does not tell how much memory an adapter has.
    memoryBytes: null,
    details: {
      vendor: a.facts.vendor,
      architecture: a.facts.architecture,
      device: a.facts.device,
      description: a.facts.description,
      backend: a.backend,
      featureLevel: a.featureLevel,
      fallbackAdapter: a.facts.isFallbackAdapter,
      software,
      nvidia: isNvidiaAdapter(a.facts),
      lockKey: adapterLockKey(a.facts),
      features: a.features.join(', '),
      timestampQuery: a.features.includes('timestamp-query'),
      peakPart: peaks.part,
      peakFp32Formula: peaks.fp32Gflops.formula,
      peakMemoryFormula: peaks.memoryGBps.formula,
      ...limits,
    },
  };
}

// `list` with this host's WebGPU adapters added, or the reason there are none.
export async function withWebgpu(list: DeviceList): Promise<DeviceList> {
  const { adapters, reason } = await webgpuAdapters();
  return { ...list, devices: [...list.devices, ...adapters.map(adapterDevice)], webgpuReason: adapters.length ? null : reason };
}

// Dawn's bindings' version for the record's versions, where they loaded.
export async function webgpuVersion(): Promise<string> {
  const { bindings, adapters, reason } = await webgpuAdapters();
  if (!bindings) return `none (${reason ?? 'not loaded'})`;
  return `npm webgpu ${bindings}${adapters.length ? '' : ` (${reason ?? 'no adapter'})`}`;
}
