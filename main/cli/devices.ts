// gpu-lab devices: what this machine can measure on — the CPU, each CUDA device with its attributes and
// theoretical peaks (with the arithmetic; the tensor cores' from main/common/pure/gpu-peaks.ts), the CUDA libraries found
// or why not, where else they were looked for and how to install them, the GPUs' state right now, and the WebGPU
// adapters (or why there are none).
// The reasons and formulas come from the engine in English; their numbers take the CLI's decimal separator.
import { TOOLKIT_LIBRARY_INSTALL } from '../common/pure/cuda-libraries.ts';
import type { LibraryInstall, ToolkitLibraryId } from '../common/pure/cuda-libraries.ts';
import { formatBytes } from '../common/pure/format.ts';
import { gpuPeaks } from '../common/pure/gpu-peaks.ts';
import { translator } from '../common/pure/i18n/index.ts';
import { localizeDecimal, type Locale } from '../common/pure/locale.ts';
import { renderMessage } from '../common/pure/message.ts';
import type { CudaDeviceInfo, DeviceReport, LibraryStatus, Telemetry } from '../common/device-report.ts';
import type { DeviceSummary } from '../common/devices.ts';
import { labMessage } from '../labs/lab-text.ts';
import { noWebgpuWhy } from '../runs/lab-runner.ts';
import { ComputeHostSupervisor } from '../engine/supervisor.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { parseArgs } from './cli-options.ts';

function rate(value: number | null, unit: 'GFLOP/s' | 'GB/s', locale: Locale): string {
  if (value === null) return '-';
  if (value >= 1000) return localizeDecimal(`${(value / 1000).toFixed(1)} ${unit === 'GB/s' ? 'TB/s' : 'TFLOP/s'}`, locale);
  return localizeDecimal(`${value.toFixed(1)} ${unit}`, locale);
}

function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
}

// A library's line; under a missing one, where else it was looked for, and the commands that install it where
// `install` says how (cuBLAS and NVRTC, on a machine with a CUDA device).
function library(name: string, lib: LibraryStatus, install: LibraryInstall | null, { t }: CliContext): string[] {
  if (lib.found) return [`  ${name.padEnd(7)} ${lib.version ?? '?'}  ${lib.path ?? lib.soname ?? ''}`];
  const under = (text: string): string => `${' '.repeat(10)}${text}`;
  return [
    `  ${name.padEnd(7)} ${t('devices.libraryMissing', { reason: lib.reason ?? t('devices.unknown') })}`,
    under(lib.searched.length ? t('devices.librarySearched', { dirs: lib.searched.join(', ') }) : t('devices.librarySearchedLoaderOnly')),
    ...(install ? [under(t('devices.libraryApt', { command: install.apt })), under(t('devices.libraryPip', { command: install.pip }))] : []),
  ];
}

function now(tel: Telemetry | undefined, { t }: CliContext): string {
  if (!tel || !tel.available) return t('devices.noTelemetry', { reason: tel?.reason ?? t('devices.nvmlMissing') });
  const v = (x: number | null, unit: string): string => (x === null ? '?' : `${Math.round(x)}${unit}`);
  const reasons = tel.throttleReasons === null ? '?' : tel.throttleReasons.length ? tel.throttleReasons.join(', ') : t('devices.none');
  return t('devices.telemetry', {
    sm: v(tel.smClockMHz, ' MHz'),
    memory: v(tel.memoryClockMHz, ' MHz'),
    temperature: v(tel.temperatureC, ' °C'),
    power: v(tel.powerW, ' W'),
    powerLimit: v(tel.powerLimitW, ' W'),
    busy: v(tel.gpuUtilizationPercent, ' %'),
    reasons,
  });
}

function cudaDetails(d: CudaDeviceInfo, tel: Telemetry | undefined, cx: CliContext): string[] {
  const { t, locale } = cx;
  const link = (gen: number | null, width: number | null): string => (gen === null ? '?' : t('devices.link', { gen, width: width ?? '?' }));
  const yesNo = (b: boolean): string => t(b ? 'devices.yes' : 'devices.no');
  // The decimals of the arithmetic take the locale's separator; an aside in parentheses keeps its version numbers
  // ("compute capability 9.0") as they are.
  const formula = (text: string): string => text.split(/(\([^()]*\))/).map((part) => (part.startsWith('(') ? part : localizeDecimal(part, locale))).join('');
  // The labels down the left, padded to the widest in this language, and the lines they head.
  const labels = { memory: t('devices.labels.memory'), shared: t('devices.labels.shared'), copies: t('devices.labels.copies'), peaks: t('devices.labels.peaks'), now: t('devices.labels.now') };
  const width = Math.max(...Object.values(labels).map((l) => l.length)) + 2;
  const labelled = (label: string, text: string): string => `  ${label.padEnd(width)}${text}`;
  // The tensor cores' peaks from the peak table, named as NVIDIA names the units ("FP64 tensor").
  const tensor = gpuPeaks(d)
    .filter((p) => p.name.endsWith('-tensor'))
    .map((p) => [`${p.name.replace('-tensor', '').toUpperCase()} tensor`, p.formula] as const);
  const peaks = [
    [t('devices.peakMemory'), d.peaks.memoryBandwidthGBs.formula],
    ['FP32', d.peaks.fp32Gflops.formula],
    ['FP64', d.peaks.fp64Gflops.formula],
    ...tensor,
    ['PCIe', d.peaks.pcieGBs.formula],
  ] as const;
  const peakWidth = Math.max(...peaks.map(([name]) => name.length)) + 1;
  return [
    `${d.id}  ${d.name}  (${d.uuid}, PCI ${d.pciBusId})`,
    `  ${t('devices.capability', { capability: d.computeCapability, sms: d.multiprocessors, clock: d.smClockMHz, maxClock: d.maxSmClockMHz ?? '?', warp: d.warpSize })}`,
    labelled(labels.memory, t('devices.memoryLine', { total: formatBytes(d.memoryTotalBytes, locale), free: formatBytes(d.memoryFreeBytes, locale), bus: d.memoryBusWidthBits, clock: d.memoryClockMHz, l2: formatBytes(d.l2CacheBytes, locale), ecc: t(d.eccEnabled ? 'devices.on' : 'devices.off') })),
    labelled(labels.shared, t('devices.sharedLine', { perBlock: formatBytes(d.sharedMemoryPerBlockBytes, locale), optIn: formatBytes(d.sharedMemoryPerBlockOptinBytes, locale), perSm: formatBytes(d.sharedMemoryPerMultiprocessorBytes, locale) })),
    labelled(labels.copies, t('devices.copiesLine', { engines: d.copyEngines, overlap: yesNo(d.concurrentCopyAndExecution), concurrent: yesNo(d.concurrentKernels), link: link(d.pcie.currentGeneration, d.pcie.currentWidth), maxLink: link(d.pcie.maxGeneration, d.pcie.maxWidth) })),
    ...peaks.map(([name, text], i) => labelled(i === 0 ? labels.peaks : '', `${name.padEnd(peakWidth)}${formula(text)}`)),
    labelled(labels.now, now(tel, cx)),
  ];
}

// A WebGPU adapter as WebGPU tells of it: its backend, whether it is the CPU, the peaks of the table (or why none),
// the limits a measurement is bound by, its features, and the clock its times come from.
function webgpuDetails(d: DeviceSummary, cx: CliContext): string[] {
  const { t, locale } = cx;
  const text = (key: string): string => String(d.details[key] ?? '?');
  const count = (key: string): string => (typeof d.details[key] === 'number' ? String(d.details[key]) : '?');
  const bytes = (key: string): string => (typeof d.details[key] === 'number' ? formatBytes(d.details[key], locale) : '?');
  const labels = { description: t('devices.webgpuLabels.description'), peaks: t('devices.webgpuLabels.peaks'), limits: t('devices.webgpuLabels.limits'), features: t('devices.webgpuLabels.features'), clock: t('devices.webgpuLabels.clock') };
  const width = Math.max(...Object.values(labels).map((l) => l.length)) + 2;
  const labelled = (label: string, line: string): string => `  ${label.padEnd(width)}${line}`;
  const backend = d.details.featureLevel === 'compatibility' ? t('devices.webgpuCompatibility', { backend: text('backend') }) : text('backend');
  return [
    t('devices.webgpuHeading', { id: d.id, name: d.name, vendor: text('vendor') || '?', architecture: text('architecture') || '?', backend }),
    ...(d.details.software === true ? [`  ${t('devices.webgpuSoftware')}`] : []),
    ...(text('description') ? [labelled(labels.description, text('description'))] : []),
    labelled(labels.peaks, `FP32 ${localizeDecimal(text('peakFp32Formula'), locale)}`),
    labelled('', `${t('devices.peakMemory')} ${localizeDecimal(text('peakMemoryFormula'), locale)}`),
    labelled(labels.limits, t('devices.webgpuLimits', { buffer: bytes('limit.maxBufferSize'), binding: bytes('limit.maxStorageBufferBindingSize'), invocations: count('limit.maxComputeInvocationsPerWorkgroup'), groups: count('limit.maxComputeWorkgroupsPerDimension') })),
    labelled(labels.features, text('features') || t('devices.none')),
    labelled(labels.clock, t(d.details.timestampQuery === true ? 'devices.webgpuTimestamps' : 'devices.webgpuNoTimestamps')),
  ];
}

export function formatDevices(report: DeviceReport, cx: CliContext): string {
  const { t, locale } = cx;
  const { list, cuda } = report;
  const rows = [
    [t('devices.id'), t('devices.name'), t('devices.memory'), t('devices.fp32Peak'), t('devices.fp64Peak'), t('devices.memoryPeak')],
    ...list.devices.map((d) => {
      const approx = (text: string): string => (d.details.peakSource === 'estimate' && text !== '-' ? `≈ ${text}` : text);
      return [d.id, d.name, d.memoryBytes === null ? '-' : formatBytes(d.memoryBytes, locale), approx(rate(d.peakGflopsFp32, 'GFLOP/s', locale)), approx(rate(d.peakGflopsFp64, 'GFLOP/s', locale)), rate(d.peakMemoryGBps, 'GB/s', locale)];
    }),
  ];
  // The CPU's FLOP peaks are estimates (main/common/cpu-peaks.ts): marked ≈ in the table, their arithmetic or the
  // reason there is none below it, in the engine's words like the GPUs' formulas.
  const cpu = list.devices.find((d) => d.kind === 'cpu');
  const estimate = cpu?.details.peakSource === 'estimate';
  const cpuPeaks = !cpu ? [] : estimate ? [`  FP32 ${String(cpu.details.peakFp32Formula)}`, `  FP64 ${String(cpu.details.peakFp64Formula)}`] : typeof cpu.details.peakReason === 'string' ? [`  ${cpu.details.peakReason}`] : [];
  // Its memory bandwidth is measured, not estimated: the method beside the figure.
  if (cpu && cpu.details.peakMemorySource === 'measured') cpuPeaks.push(`  memory ${String(cpu.details.peakMemoryFormula)} = ${rate(cpu.peakMemoryGBps, 'GB/s', 'en')}`);
  // The CPU's peak lines right under its row, above any GPU's.
  const tableLines = table(rows);
  const cpuRow = cpu ? list.devices.indexOf(cpu) + 2 : tableLines.length;
  const lines = [...tableLines.slice(0, cpuRow), ...cpuPeaks.map((l) => localizeDecimal(l, locale)), ...tableLines.slice(cpuRow), '', t('devices.cpuGemm', { blas: list.blasWhat ? renderMessage(list.blasWhat, translator(locale), locale) : list.blas }), ''];
  if (!cuda.available) {
    lines.push(t('devices.cudaMissing', { reason: cuda.reason ?? t('devices.unknownReason') }));
  } else {
    lines.push(t('devices.cuda', { runtime: cuda.runtimeVersion ?? '?', driver: cuda.driverVersion ?? '?', cuda: cuda.driverCudaVersion ?? '?' }));
  }
  // Installing cuBLAS or NVRTC helps only where there is a CUDA device to run them on.
  const install = (id: ToolkitLibraryId): LibraryInstall | null => (cuda.available ? TOOLKIT_LIBRARY_INSTALL[id] : null);
  const { cublas, nvrtc, nvml } = cuda.libraries;
  lines.push(...library('cuBLAS', cublas, install('cublas'), cx), ...library('NVRTC', nvrtc, install('nvrtc'), cx), ...library('NVML', nvml, null, cx));
  if (cuda.available && (!cublas.found || !nvrtc.found)) lines.push(t('devices.libraryRestart'));
  cuda.devices.forEach((d, i) => lines.push('', ...cudaDetails(d, report.telemetry[i], cx)));
  const webgpus = list.devices.filter((d) => d.kind === 'webgpu');
  if (!webgpus.length) lines.push('', t('devices.webgpuMissing', { reason: labMessage(noWebgpuWhy(list.webgpuReason ?? t('devices.unknownReason')), locale) }));
  webgpus.forEach((d) => lines.push('', ...webgpuDetails(d, cx)));
  return lines.join('\n');
}

async function run(argv: string[], io: CliIo, cx: CliContext): Promise<number> {
  const args = parseArgs(argv, [], ['json']);
  if (args.positional.length) throw new UsageError('usage.unexpected', { value: args.positional[0] ?? '' });
  // The report comes from the compute host, the one process that loads the addon: a crash while reading the
  // devices is reported here (COMPUTE_HOST_CRASHED, exit 1), never fatal to this process.
  const host = new ComputeHostSupervisor({ launcher: cx.launcher, log: () => undefined });
  let report: DeviceReport;
  try {
    report = await host.inspect();
  } finally {
    await host.stop();
  }
  // --json: the engine's report as it is, in any language.
  io.out(args.flags.has('json') ? `${JSON.stringify({ ...report.list, cuda: report.cuda, telemetry: report.telemetry }, null, 2)}\n` : `${formatDevices(report, cx)}\n`);
  return 0;
}

export const devicesCommand: CliCommand = { name: 'devices', usage: (t) => t('commands.devices.usage'), run };
