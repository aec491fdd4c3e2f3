// A run that cannot fit is refused before it starts, with the figure it needs: a point whose operands outgrow the
// memory the host has available (or the GPU has in all) would otherwise fail at allocation, be killed by the
// system's out-of-memory killer, or swap for minutes, after the points before it had been measured.
import { readFileSync } from 'node:fs';
import { freemem } from 'node:os';

import type { DeviceSummary } from '../common/devices.ts';
import { GpuLabError } from '../common/errors.ts';
import { measurementFootprint } from '../common/footprint.ts';
import { formatBytes } from '../common/pure/format.ts';
import type { PlannedPoint } from '../labs/lab.ts';

// Beside the operands: the compute host's own heap, the runtime's, the system's.
const HOST_HEADROOM_BYTES = 512 * 2 ** 20;
// A GPU's memory is not all the application's: the driver's context and cuBLAS's workspace take some.
const DEVICE_USABLE_SHARE = 0.95;

// What can be allocated now without swapping: MemAvailable where Linux gives it, else the free memory; null where
// neither can be read.
export function availableHostBytes(meminfo = '/proc/meminfo'): number | null {
  try {
    const kib = /^MemAvailable:\s+(\d+)\s+kB$/m.exec(readFileSync(meminfo, 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux: the free memory.
  }
  const free = freemem();
  return free > 0 ? free : null;
}

// Throws INVALID_PARAMS naming the first point (in the plan's order) whose operands and results do not fit.
export function checkPlanFits(planned: readonly PlannedPoint[], hostAvailable: number | null, devices: readonly DeviceSummary[]): void {
  for (const p of planned) {
    if (!p.measurement) continue;
    const need = measurementFootprint(p.measurement);
    if (hostAvailable !== null && need.hostBytes + HOST_HEADROOM_BYTES > hostAvailable) {
      throw tooBig(p, need.hostBytes, hostAvailable, 'host', `of host memory, more than the ${formatBytes(hostAvailable - HOST_HEADROOM_BYTES, 'en')} this machine has available now (beside what the system and GPU Lab themselves need)`);
    }
    const gpu = devices.find((d) => d.id === p.measurement?.device && d.kind === 'cuda');
    if (gpu?.memoryBytes && need.deviceBytes > gpu.memoryBytes * DEVICE_USABLE_SHARE) {
      throw tooBig(p, need.deviceBytes, gpu.memoryBytes, 'device', `of GPU memory, more than ${gpu.id} (${gpu.name}, ${formatBytes(gpu.memoryBytes, 'en')} in all) can give a program`);
    }
  }
}

function tooBig(p: PlannedPoint, needBytes: number, availableBytes: number, memory: 'host' | 'device', than: string): GpuLabError {
  return new GpuLabError('INVALID_PARAMS', `The point "${p.label}" needs ${formatBytes(needBytes, 'en')} ${than}: choose a smaller size`, {
    point: p.label,
    memory,
    needBytes,
    availableBytes,
  });
}
