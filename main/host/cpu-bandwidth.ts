// The CPU's memory bandwidth, measured (there is no honest table of it: channels, DIMMs and a VM's share vary): a
// STREAM-style add (c = a + b over fp32 arrays, 12 bytes an element) on every logical core, with each array at least
// four times the last-level cache and 64 MiB, so that the data comes from memory. Its best run is the figure, as
// STREAM reports; it is labelled measured wherever it is shown, and a point may pass it. Measured once per boot of the
// machine, in the compute host's turn like any measurement, and kept in the system's temporary folder for the hosts
// after it (each command of the CLI starts one; a second or two of first-touched pages each time would add up).
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import type { DeviceList, DeviceSummary } from '../common/devices.ts';
import { MEASUREMENT } from '../common/measurement.ts';
import { read } from './cpu-peaks.ts';
import { measure } from './ops/index.ts';

const MIN_ARRAY_BYTES = 64 * 2 ** 20;
const MAX_ARRAY_BYTES = 256 * 2 ** 20;
const RUNS = 5;

export interface MeasuredBandwidth {
  gbps: number;
  // "measured: STREAM-style add, 3 fp32 arrays of 64 MiB, 16 threads, best of 5 runs"
  method: string;
}

let measured: Promise<MeasuredBandwidth | null> | null = null;

// The figure is this boot's and this CPU's: a reboot, or another machine sharing the folder, measures again.
function cacheFile(): string {
  let user = 'user';
  try {
    user = String(userInfo().uid);
  } catch {
    // No passwd entry: one file for all.
  }
  return join(process.env.GPU_LAB_CACHE_DIR || tmpdir(), `gpu-lab-cpu-bandwidth-${user}.json`);
}

function cacheKey(cpu: DeviceSummary): string {
  return `${read('/proc/sys/kernel/random/boot_id')?.trim() ?? ''}|${cpu.name}|${cpu.memoryBytes ?? ''}|${String(cpu.details.logicalCores)}`;
}

function cached(cpu: DeviceSummary): MeasuredBandwidth | null {
  try {
    const c = JSON.parse(read(cacheFile()) ?? '') as { key?: unknown; gbps?: unknown; method?: unknown };
    const key = cacheKey(cpu);
    if (key.startsWith('|') || c.key !== key || typeof c.gbps !== 'number' || !(c.gbps > 0) || typeof c.method !== 'string') return null;
    return { gbps: c.gbps, method: c.method };
  } catch {
    return null;
  }
}

function remember(cpu: DeviceSummary, bw: MeasuredBandwidth): void {
  const file = cacheFile();
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify({ key: cacheKey(cpu), ...bw }), { flag: 'wx', mode: 0o644 });
    renameSync(temp, file);
  } catch {
    // Not kept: the next host measures again.
  }
}

async function measureOnce(cpu: DeviceSummary): Promise<MeasuredBandwidth | null> {
  const l3 = typeof cpu.details.l3CacheBytes === 'number' ? cpu.details.l3CacheBytes : 0;
  const arrayBytes = Math.min(MAX_ARRAY_BYTES, Math.max(MIN_ARRAY_BYTES, 4 * l3));
  const elements = Math.floor(arrayBytes / 4);
  const threads = typeof cpu.details.logicalCores === 'number' ? cpu.details.logicalCores : 1;
  try {
    const m = MEASUREMENT.parse({ op: 'add', variant: 'threads', elements, device: 'cpu', warmup: 0, repeats: RUNS, seed: 1, cold: true });
    const r = await measure(m, { signal: new AbortController().signal, onProgress: () => undefined });
    if (!r.verification?.passed) return null;
    // The first sample of a cold measurement maps the output's pages: the best of the others.
    const best = Math.min(...r.hostMs.slice(1));
    if (!(best > 0)) return null;
    const gbps = (12 * elements) / (best * 1e6);
    const mib = Math.round(arrayBytes / 2 ** 20);
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const bw = { gbps, method: `measured ${at}: STREAM-style add, 3 fp32 arrays of ${mib} MiB, ${threads} threads, best of ${RUNS - 1} runs` };
    remember(cpu, bw);
    return bw;
  } catch {
    return null;
  }
}

// The device list with the CPU's measured memory bandwidth as its memory peak (source and method in its details).
// `turn` runs the one measurement in the host's queue, so that it never shares the machine with another.
export async function withCpuBandwidth(list: DeviceList, turn: <T>(work: () => Promise<T>) => Promise<T>): Promise<DeviceList> {
  const cpu = list.devices.find((d) => d.kind === 'cpu');
  if (!cpu) return list;
  measured ??= Promise.resolve(cached(cpu)).then((c) => c ?? turn(() => measureOnce(cpu)));
  const bw = await measured;
  if (!bw) return list;
  return {
    ...list,
    devices: list.devices.map((d) => (d === cpu ? { ...d, peakMemoryGBps: bw.gbps, details: { ...d.details, peakMemorySource: 'measured', peakMemoryFormula: bw.method } } : d)),
  };
}
