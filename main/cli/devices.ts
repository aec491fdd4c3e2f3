// gpu-lab devices: what this machine can measure on — the CPU, each CUDA device with its attributes and
// theoretical peaks (with the arithmetic), the CUDA libraries found or why not, and the GPUs' state right now.
import { parseArgs } from 'node:util';

import { formatBytes } from '../common/format.ts';
import { deviceReport } from '../compute/device-report.ts';
import type { CudaDeviceInfo, DeviceReport, LibraryStatus, Telemetry } from '../compute/device-report.ts';
import type { CliCommand, CliIo } from './command.ts';
import { UsageError } from './command.ts';

const USAGE = `Usage: gpu-lab devices [--json]

Lists the CPU and the CUDA devices with their attributes and theoretical peaks; says why there is no CUDA device
when there is none.
  --json   print the device list, the CUDA inventory and the telemetry readings as JSON`;

function rate(value: number | null, unit: 'GFLOP/s' | 'GB/s'): string {
  if (value === null) return '-';
  if (value >= 1000) return `${(value / 1000).toFixed(1)} ${unit === 'GB/s' ? 'TB/s' : 'TFLOP/s'}`;
  return `${value.toFixed(1)} ${unit}`;
}

function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
}

function library(name: string, lib: LibraryStatus): string {
  return `  ${name.padEnd(7)} ${lib.found ? `${lib.version ?? '?'}  ${lib.path ?? lib.soname ?? ''}` : `not found: ${lib.reason ?? 'unknown'}`}`;
}

function now(t: Telemetry | undefined): string {
  if (!t || !t.available) return `  now:     no telemetry (${t?.reason ?? 'NVML missing'})`;
  const v = (x: number | null, unit: string): string => (x === null ? '?' : `${Math.round(x)}${unit}`);
  const reasons = t.throttleReasons === null ? '?' : t.throttleReasons.length ? t.throttleReasons.join(', ') : 'none';
  return `  now:     SM ${v(t.smClockMHz, ' MHz')}, memory ${v(t.memoryClockMHz, ' MHz')}, ${v(t.temperatureC, ' °C')}, ${v(t.powerW, ' W')} of ${v(t.powerLimitW, ' W')}, busy ${v(t.gpuUtilizationPercent, ' %')}; clock limits: ${reasons}`;
}

function cudaDetails(d: CudaDeviceInfo, t: Telemetry | undefined): string[] {
  const link = (gen: number | null, width: number | null): string => (gen === null ? '?' : `gen ${gen} x${width ?? '?'}`);
  return [
    `${d.id}  ${d.name}  (${d.uuid}, PCI ${d.pciBusId})`,
    `  compute capability ${d.computeCapability}, ${d.multiprocessors} SMs at ${d.smClockMHz} MHz (max ${d.maxSmClockMHz ?? '?'} MHz), warp ${d.warpSize}`,
    `  memory:  ${formatBytes(d.memoryTotalBytes)} (${formatBytes(d.memoryFreeBytes)} free), ${d.memoryBusWidthBits}-bit bus at ${d.memoryClockMHz} MHz, L2 ${formatBytes(d.l2CacheBytes)}, ECC ${d.eccEnabled ? 'on' : 'off'}`,
    `  shared:  ${formatBytes(d.sharedMemoryPerBlockBytes)} per block (${formatBytes(d.sharedMemoryPerBlockOptinBytes)} opt-in), ${formatBytes(d.sharedMemoryPerMultiprocessorBytes)} per SM`,
    `  copies:  ${d.copyEngines} copy engines, copy/compute overlap ${d.concurrentCopyAndExecution ? 'yes' : 'no'}, concurrent kernels ${d.concurrentKernels ? 'yes' : 'no'}; PCIe ${link(d.pcie.currentGeneration, d.pcie.currentWidth)} (max ${link(d.pcie.maxGeneration, d.pcie.maxWidth)})`,
    `  peaks:   memory ${d.peaks.memoryBandwidthGBs.formula}`,
    `           FP32   ${d.peaks.fp32Gflops.formula}`,
    `           FP64   ${d.peaks.fp64Gflops.formula}`,
    `           PCIe   ${d.peaks.pcieGBs.formula}`,
    now(t),
  ];
}

export function formatDevices(report: DeviceReport): string {
  const { list, cuda } = report;
  const rows = [
    ['id', 'name', 'memory', 'FP32 peak', 'FP64 peak', 'memory peak'],
    ...list.devices.map((d) => [d.id, d.name, d.memoryBytes === null ? '-' : formatBytes(d.memoryBytes), rate(d.peakGflopsFp32, 'GFLOP/s'), rate(d.peakGflopsFp64, 'GFLOP/s'), rate(d.peakMemoryGBps, 'GB/s')]),
  ];
  const lines = [...table(rows), '', `CPU GEMM: ${list.blas}`, ''];
  if (!cuda.available) {
    lines.push(`CUDA: not available — ${cuda.reason ?? 'unknown reason'}`);
  } else {
    lines.push(`CUDA: runtime ${cuda.runtimeVersion ?? '?'}, driver ${cuda.driverVersion ?? '?'} (supports CUDA ${cuda.driverCudaVersion ?? '?'})`);
  }
  lines.push(library('cuBLAS', cuda.libraries.cublas), library('NVRTC', cuda.libraries.nvrtc), library('NVML', cuda.libraries.nvml));
  cuda.devices.forEach((d, i) => lines.push('', ...cudaDetails(d, report.telemetry[i])));
  return lines.join('\n');
}

async function run(argv: string[], io: CliIo): Promise<number> {
  let json: boolean;
  try {
    ({ values: { json } } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const report = deviceReport();
  io.out(json ? `${JSON.stringify({ ...report.list, cuda: report.cuda, telemetry: report.telemetry }, null, 2)}\n` : `${formatDevices(report)}\n`);
  return 0;
}

export const devicesCommand: CliCommand = { name: 'devices', summary: 'list the CPU and CUDA devices, their peaks and the libraries found', usage: USAGE, run };
