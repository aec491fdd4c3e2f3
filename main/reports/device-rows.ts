// One device's rows on the report's "Device and environment" page, in the reader's language: what the app knows of it
// and its peaks, each under the heading of what it is (theoretical, NVIDIA's stated figure, measured on this machine,
// or estimated) with its arithmetic beneath. A GPU's peaks come from the peak table (common/pure/gpu-peaks.ts): NVIDIA's
// datasheet figure where the card is known, then the figure at the clock the device reports. The arithmetic the
// record keeps in English (the native addon's PCIe formula, the compute host's bandwidth measurement and CPU
// estimates, why a CPU has no estimate) is read back into its numbers and written in the reader's words; text that
// does not read back is shown as recorded.
import { datasheetPeak, gpuPeaks, type GpuPeak } from '../common/pure/gpu-peaks.ts';
import { formatBytes, formatRate, formatWhole } from '../common/pure/format.ts';
import type { DeviceSummary } from '../common/devices.ts';
import { localizeDecimal } from '../common/pure/locale.ts';
import { dateText, type ReportContext } from './report-context.ts';
import type { TableCell, TableRow } from './table.ts';

type Detail = DeviceSummary['details'][string] | undefined;
type Translate = ReportContext['t'];

// Details of a GPU that the run's versions repeat.
const VERSION_DETAILS = new Set(['driverVersion', 'driverCudaVersion', 'runtimeVersion', 'cublas', 'nvrtc', 'nvml']);
// A WebGPU adapter's limits that are sizes in bytes.
const BYTE_LIMITS = new Set(['limit.maxBufferSize', 'limit.maxStorageBufferBindingSize', 'limit.maxComputeWorkgroupStorageSize']);
// A WebGPU adapter's keys for its device lock, not facts of the adapter.
const LOCK_DETAILS = new Set(['lockKey', 'nvidia']);

// A detail's value in its unit, read off its name: …Bytes, …MHz, …Bits, …W, …GBps; whole numbers grouped as the
// language groups them ("1,980 MHz", "1980 MHz").
function detailText(key: string, value: Detail, t: Translate): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return t(value ? 'pdf.environment.yes' : 'pdf.environment.no');
  if (typeof value === 'string') return key === 'peakReason' ? t('pdf.environment.noFlopPeakRow', { reason: noPeakText(value, t) }) : value;
  if (key.endsWith('Bytes') || BYTE_LIMITS.has(key)) return formatBytes(value);
  if (key.endsWith('MHz')) return t('pdf.environment.unit.mhz', { value: formatWhole(value) });
  if (key.endsWith('Bits')) return t('pdf.environment.unit.bits', { value: formatWhole(value) });
  if (key.endsWith('W')) return t('pdf.environment.unit.watts', { value: formatWhole(value) });
  if (key.endsWith('GBps')) return formatRate(value, 'GB/s');
  return formatWhole(value);
}

function detailLabel(key: string, t: Translate): string {
  const label = t(`pdf.environment.detail.${key}`);
  return label.startsWith('pdf.') ? key : label;
}

// Why the CPU has no estimated FLOP peak, from the reason host/cpu-peaks.ts and common/cpu-peaks.ts give in English.
export function noPeakText(reason: string, t: Translate): string {
  const table = /^no FLOP peak: the FMA units of this CPU \((.+)\) are not in the table$/.exec(reason);
  if (table) return t('pdf.environment.noFlopPeak.table', { cpu: table[1] ?? '' });
  if (reason === 'no FLOP peak: neither cpufreq nor the model name gives the maximum clock') return t('pdf.environment.noFlopPeak.clock');
  if (reason === 'no FLOP peak: the number of cores is not known') return t('pdf.environment.noFlopPeak.cores');
  if (reason === 'no FLOP peak: /proc/cpuinfo is not readable') return t('pdf.environment.noFlopPeak.cpuinfo');
  return reason;
}

// host/cpu-bandwidth.ts's "measured 2026-11-26T15:27:00Z: STREAM-style add, 3 fp32 arrays of 256 MiB, 16 threads,
// best of 4 runs".
function streamText(method: Detail, t: Translate): string | undefined {
  if (typeof method !== 'string') return undefined;
  const m = /^measured (\S+): STREAM-style add, 3 fp32 arrays of (\d+) MiB, (\d+) threads, best of (\d+) runs$/.exec(method);
  if (!m) return method;
  return t('pdf.environment.formula.stream', { date: dateText(m[1] ?? ''), size: formatBytes(Number(m[2]) * 2 ** 20), threads: formatWhole(Number(m[3])), runs: formatWhole(Number(m[4])) });
}

// common/cpu-peaks.ts's "estimate: 16 cores × 3500 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units
// (Intel Xeon Scalable) × 2 FLOP = 3584 GFLOP/s".
function estimateText(formula: Detail, t: Translate): string | undefined {
  if (typeof formula !== 'string') return undefined;
  const m = /^estimate: (\d+) cores × ([\d.]+) MHz \((cpufreq maximum|base clock in the model name)\) × (\d+) (fp32|fp64) lanes \(([^)]+)\) × (\d+) FMA units \(([^)]+)\) × 2 FLOP = ([\d.]+) GFLOP\/s$/.exec(formula);
  if (!m) return formula;
  return t('pdf.environment.formula.cpuEstimate', {
    cores: formatWhole(Number(m[1])),
    mhz: formatWhole(Number(m[2])),
    clock: t(`pdf.environment.formula.clock.${m[3] === 'cpufreq maximum' ? 'cpufreq' : 'modelName'}`),
    lanes: m[4] ?? '',
    type: m[5] ?? '',
    isa: m[6] ?? '',
    units: m[7] ?? '',
    arch: m[8] ?? '',
    value: formatRate(Number(m[9]), 'GFLOP/s'),
  });
}

// native/cuda/peaks.cu's "16 lanes × 32.0 GT/s (PCIe 5) × 128b/130b / 8 = 63.0 GB/s per direction".
function pcieText(formula: Detail, value: Detail, t: Translate): string | undefined {
  if (typeof formula !== 'string') return undefined;
  const m = /^(\d+) lanes × ([\d.]+) GT\/s \(PCIe (\d+)\) × (.+) \/ 8 = [\d.]+ GB\/s per direction$/.exec(formula);
  if (!m || typeof value !== 'number') return localizeDecimal(formula);
  return t('pdf.environment.formula.pcie', { lanes: formatWhole(Number(m[1])), rate: localizeDecimal(m[2] ?? ''), gen: m[3] ?? '', encoding: m[4] ?? '', value: formatRate(value, 'GB/s') });
}

// A peak's arithmetic at the device's clock, from the table's numbers.
function clockFormula(peak: GpuPeak, t: Translate): string {
  const value = formatRate(peak.value, peak.unit);
  if ('memoryMHz' in peak.terms) return t('pdf.environment.formula.memory', { mhz: formatWhole(peak.terms.memoryMHz), bits: formatWhole(peak.terms.bits), value });
  const { sms, perClock, mhz, arch } = peak.terms;
  return t('pdf.environment.formula.compute', { sms: formatWhole(sms), perClock: formatWhole(perClock), per: peak.unit === 'GOP/s' ? 'OP' : 'FLOP', mhz: formatWhole(mhz), value, arch });
}

const PEAK_LABELS: Record<string, string> = { memory: 'peakMemory', fp32: 'peakFp32', fp64: 'peakFp64' };

// A GPU peak's cell: NVIDIA's figure where the card is known, the clock's arithmetic beneath; else the clock's figure.
function gpuPeakRow(device: DeviceSummary, peak: GpuPeak, t: Translate): TableRow {
  const label = peak.name.endsWith('-tensor') ? t('pdf.environment.peakTensor', { type: peak.name.slice(0, -'-tensor'.length) }) : t(`pdf.environment.${PEAK_LABELS[peak.name] ?? 'peakFp32'}`);
  const sheet = datasheetPeak(device.name, peak.name);
  const formula = clockFormula(peak, t);
  const cell: TableCell = sheet
    ? { text: formatRate(sheet.value, sheet.unit), note: t('pdf.environment.datasheet', { product: sheet.product, formula }) }
    : { text: formatRate(peak.value, peak.unit), note: formula };
  return { cells: [label, cell] };
}

function gpuRows(device: DeviceSummary, t: Translate): TableRow[] {
  const peaks = gpuPeaks(device.details);
  const rows = peaks.map((peak) => gpuPeakRow(device, peak, t));
  // A unit the table does not know for this card, where the device report has a figure: as the addon wrote it.
  const known = new Set(peaks.map((p) => p.name));
  const reported: [string, string, number | null, 'GB/s' | 'GFLOP/s'][] = [
    ['memory', 'peakMemory', device.peakMemoryGBps, 'GB/s'],
    ['fp32', 'peakFp32', device.peakGflopsFp32, 'GFLOP/s'],
    ['fp64', 'peakFp64', device.peakGflopsFp64, 'GFLOP/s'],
  ];
  for (const [name, key, value, unit] of reported) {
    if (known.has(name as GpuPeak['name']) || value === null) continue;
    const formula = device.details[`${key}Formula`];
    rows.push({ cells: [t(`pdf.environment.${key}`), { text: formatRate(value, unit), note: typeof formula === 'string' ? localizeDecimal(formula) : undefined }] });
  }
  return rows;
}

// A WebGPU adapter's peaks from the table of known adapters (common/webgpu-adapters.ts), or why it has none.
function webgpuRows(device: DeviceSummary, t: Translate): TableRow[] {
  const rows: TableRow[] = [];
  for (const [key, value, unit] of [['peakMemory', device.peakMemoryGBps, 'GB/s'], ['peakFp32', device.peakGflopsFp32, 'GFLOP/s']] as const) {
    const formula = device.details[`${key}Formula`];
    const note = typeof formula === 'string' ? formula : undefined;
    rows.push({ cells: [t(`pdf.environment.${key}`), value === null ? (note ?? '—') : { text: formatRate(value, unit), note }] });
  }
  return rows;
}

function cpuRows(device: DeviceSummary, t: Translate): TableRow[] {
  const rows: TableRow[] = [];
  const d = device.details;
  if (device.peakMemoryGBps !== null) {
    const measured = d.peakMemorySource === 'measured';
    rows.push({ cells: [t(measured ? 'pdf.environment.measuredMemory' : 'pdf.environment.peakMemory'), { text: formatRate(device.peakMemoryGBps, 'GB/s'), note: measured ? streamText(d.peakMemoryFormula, t) : undefined }] });
  }
  const estimate = d.peakSource === 'estimate';
  for (const [key, value] of [['Fp32', device.peakGflopsFp32], ['Fp64', device.peakGflopsFp64]] as const) {
    if (value === null) continue;
    rows.push({ cells: [t(estimate ? `pdf.environment.estimated${key}` : `pdf.environment.peak${key}`), { text: formatRate(value, 'GFLOP/s'), note: estimateText(d[`peak${key}Formula`], t) }] });
  }
  return rows;
}

// The datasheet a GPU's peaks are NVIDIA's figures from, where gpu-peaks.ts knows the card: said once above its rows.
export function datasheetOf(device: DeviceSummary): string | null {
  return device.kind === 'cuda' ? (datasheetPeak(device.name, 'fp32') ?? datasheetPeak(device.name, 'memory'))?.document ?? null : null;
}

export function deviceRows(device: DeviceSummary, ctx: ReportContext): TableRow[] {
  const { t } = ctx;
  const rows: TableRow[] = [{ cells: [t('pdf.environment.name'), { text: device.name, font: 'bold' }] }];
  if (device.memoryBytes !== null) rows.push({ cells: [t('pdf.environment.memory'), formatBytes(device.memoryBytes)] });
  rows.push(...(device.kind === 'cuda' ? gpuRows(device, t) : device.kind === 'webgpu' ? webgpuRows(device, t) : cpuRows(device, t)));
  for (const [key, value] of Object.entries(device.details)) {
    // Formulas are shown under the peak they give, and say where it comes from (an estimate, a measurement): not again
    // as a row of their source; versions in the table of versions.
    if (key.endsWith('Formula') || key.endsWith('Source') || VERSION_DETAILS.has(key) || LOCK_DETAILS.has(key)) continue;
    // The PCIe peak carries its formula; the CPU's last-level cache where its size comes from.
    const note = key === 'peakPcieGBps' ? pcieText(device.details.peakPcieFormula, value, t) : key === 'l3CacheBytes' && device.kind === 'cpu' ? t('pdf.environment.l3Source') : undefined;
    rows.push({ cells: [detailLabel(key, t), { text: detailText(key, value, t), note }] });
  }
  return rows;
}
