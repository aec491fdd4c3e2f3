// The CPU's estimated peaks (main/common/cpu-peaks.ts) from what Linux tells: /proc/cpuinfo's vendor, family, model,
// model name and flags, and cpufreq's maximum clock where it is readable. The device list's CPU gets them as its
// peaks, with the formula and 'estimate' as their source, or the reason there is none.
import { readFileSync } from 'node:fs';

import { estimateCpuPeaks, type CpuFacts } from '../common/cpu-peaks.ts';
import { msg } from '../common/pure/message.ts';
import type { DeviceList, DeviceSummary } from '../common/devices.ts';

// A file's text, or null where it cannot be read.
export function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

// The first processor's fields of /proc/cpuinfo ("flags", "cpu family", …), or null off Linux.
function cpuinfoFields(text: string | null): Map<string, string> | null {
  if (text === null) return null;
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '' && fields.size) break;
    const i = line.indexOf(':');
    if (i > 0) fields.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return fields;
}

export function cpuFacts(physicalCores: number): CpuFacts | null {
  const fields = cpuinfoFields(read('/proc/cpuinfo'));
  if (!fields) return null;
  const int = (key: string): number | null => {
    const v = Number.parseInt(fields.get(key) ?? '', 10);
    return Number.isFinite(v) ? v : null;
  };
  const maxKHz = Number.parseInt(read('/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq') ?? '', 10);
  return {
    vendor: fields.get('vendor_id') ?? '',
    family: int('cpu family'),
    model: int('model'),
    modelName: fields.get('model name') ?? '',
    physicalCores,
    flags: (fields.get('flags') ?? '').split(/\s+/).filter(Boolean),
    maxClockMHz: Number.isFinite(maxKHz) && maxKHz > 0 ? maxKHz / 1000 : null,
  };
}

function withEstimate(cpu: DeviceSummary): DeviceSummary {
  const cores = typeof cpu.details.physicalCores === 'number' ? cpu.details.physicalCores : 0;
  const facts = cpuFacts(cores);
  if (!facts) return { ...cpu, peakWhy: msg('reasons.cpuPeakNoCpuinfo'), details: { ...cpu.details, peakReason: 'no FLOP peak: /proc/cpuinfo is not readable' } };
  const e = estimateCpuPeaks(facts);
  if (e.reason !== null) return { ...cpu, peakWhy: e.why, details: { ...cpu.details, peakReason: e.reason } };
  return {
    ...cpu,
    peakGflopsFp32: e.fp32Gflops,
    peakGflopsFp64: e.fp64Gflops,
    details: { ...cpu.details, peakSource: 'estimate', peakFp32Formula: e.fp32Formula, peakFp64Formula: e.fp64Formula },
  };
}

// The device list with the CPU's estimated FLOP peaks filled in (the GPUs' come from their attributes).
export function withCpuPeaks(list: DeviceList): DeviceList {
  return { ...list, devices: list.devices.map((d) => (d.kind === 'cpu' && d.peakGflopsFp32 === null ? withEstimate(d) : d)) };
}
