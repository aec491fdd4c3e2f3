// "Device and environment": every device of the run with what the app knows of it (cores, caches, clocks, memory,
// the theoretical peaks with their arithmetic), the versions of everything that produced a number, and the GPU's
// telemetry when the run started and when it ended.
import { gpuPeaks } from '../common/gpu-peaks.ts';
import { formatBytes, formatRate } from '../common/format.ts';
import { versionRow } from '../common/i18n/version-text.ts';
import type { DeviceSummary } from '../common/devices.ts';
import type { TelemetrySnapshot } from '../common/measurement.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';
import type { ReportContext } from './report-context.ts';
import type { TableRow } from './table.ts';
import { drawTable } from './table.ts';

type Detail = DeviceSummary['details'][string];

// Details of a GPU that the run's versions repeat.
const VERSION_DETAILS = new Set(['driverVersion', 'driverCudaVersion', 'runtimeVersion', 'cublas', 'nvrtc', 'nvml']);
// A WebGPU adapter's limits that are sizes in bytes.
const BYTE_LIMITS = new Set(['limit.maxBufferSize', 'limit.maxStorageBufferBindingSize', 'limit.maxComputeWorkgroupStorageSize']);
// A WebGPU adapter's keys for its device lock, not facts of the adapter.
const LOCK_DETAILS = new Set(['lockKey', 'nvidia']);

// Counts as the app's device inspector writes them: whole, in English with the thousands separator ("1,980 MHz"); in
// Spanish without one ("1980 MHz"), where a comma is the decimal sign and "1,980" would read as not quite two.
const count = (value: number, ctx: ReportContext): string => new Intl.NumberFormat(ctx.settings.locale, { useGrouping: ctx.settings.locale === 'en' }).format(value);

// A detail's value in its unit, read off its name: …Bytes, …MHz, …Bits, …W, …GBps.
function detailText(key: string, value: Detail, ctx: ReportContext): string {
  const { t } = ctx;
  if (value === null) return '—';
  if (typeof value === 'boolean') return t(value ? 'pdf.environment.yes' : 'pdf.environment.no');
  if (typeof value === 'string') return value;
  if (key.endsWith('Bytes') || BYTE_LIMITS.has(key)) return formatBytes(value);
  if (key.endsWith('MHz')) return t('pdf.environment.unit.mhz', { value: count(value, ctx) });
  if (key.endsWith('Bits')) return t('pdf.environment.unit.bits', { value: count(value, ctx) });
  if (key.endsWith('W')) return t('pdf.environment.unit.watts', { value: count(value, ctx) });
  if (key.endsWith('GBps')) return formatRate(value, 'GB/s');
  return count(value, ctx);
}

function detailLabel(key: string, ctx: ReportContext): string {
  const label = ctx.t(`pdf.environment.detail.${key}`);
  return label.startsWith('pdf.') ? key : label;
}

function deviceRows(device: DeviceSummary, ctx: ReportContext): TableRow[] {
  const { t } = ctx;
  const rows: TableRow[] = [{ cells: [t('pdf.environment.name'), { text: device.name, font: 'bold' }] }];
  if (device.memoryBytes !== null) rows.push({ cells: [t('pdf.environment.memory'), formatBytes(device.memoryBytes)] });
  const peaks: [string, number | null, string][] = [
    ['peakMemory', device.peakMemoryGBps, 'GB/s'],
    ['peakFp32', device.peakGflopsFp32, 'GFLOP/s'],
    ['peakFp64', device.peakGflopsFp64, 'GFLOP/s'],
  ];
  for (const [name, value, unit] of peaks) {
    const formula = device.details[`${name}Formula`];
    // A WebGPU adapter without a peak says why ("no peak known: …").
    if (value === null && device.kind === 'webgpu' && typeof formula === 'string') rows.push({ cells: [t(`pdf.environment.${name}`), formula] });
    if (value === null) continue;
    rows.push({ cells: [t(`pdf.environment.${name}`), { text: formatRate(value, unit as 'GB/s' | 'GFLOP/s'), note: typeof formula === 'string' ? formula : undefined }] });
  }
  // The tensor-core peaks the table of peaks knows for this card (common/gpu-peaks.ts), each with its formula: what a
  // product on the tensor cores is read against.
  if (device.kind === 'cuda') {
    for (const peak of gpuPeaks(device.details).filter((p) => p.name.endsWith('-tensor'))) {
      rows.push({ cells: [t('pdf.environment.peakTensor', { type: peak.name.slice(0, -'-tensor'.length) }), { text: formatRate(peak.value, peak.unit), note: peak.formula }] });
    }
  }
  for (const [key, value] of Object.entries(device.details)) {
    // Formulas are shown under the peak they give, and say where it comes from (an estimate, a measurement): not again
    // as a row of their source; versions in the table of versions.
    if (key.endsWith('Formula') || key.endsWith('Source') || VERSION_DETAILS.has(key) || LOCK_DETAILS.has(key)) continue;
    // The PCIe peak carries its formula; the CPU's last-level cache where its size comes from.
    const formula = key === 'peakPcieGBps' ? device.details.peakPcieFormula : key === 'l3CacheBytes' && device.kind === 'cpu' ? t('pdf.environment.l3Source') : undefined;
    rows.push({ cells: [detailLabel(key, ctx), { text: detailText(key, value, ctx), note: typeof formula === 'string' ? formula : undefined }] });
  }
  return rows;
}

function telemetryOf(record: RunRecord): { start: TelemetrySnapshot; end: TelemetrySnapshot } | null {
  const measured = record.points.filter((p): p is PointResult & { telemetry: NonNullable<PointResult['telemetry']> } => p.telemetry !== null);
  const first = measured[0];
  const last = measured.at(-1);
  return first && last ? { start: first.telemetry.start, end: last.telemetry.end } : null;
}

export function telemetrySection(record: RunRecord, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const telemetry = telemetryOf(record);
  if (!telemetry) {
    layout.paragraph(t('pdf.environment.telemetry.none'), { size: 8.5 });
    return;
  }
  const value = (v: number | null, key: string): string => (v === null ? '—' : t(`pdf.environment.unit.${key}`, { value: count(Math.round(v), ctx) }));
  const throttle = (s: TelemetrySnapshot): string => (s.throttleReasons.length === 0 ? t('pdf.environment.telemetry.noThrottle') : s.throttleReasons.join(', '));
  const row = (label: string, pick: (s: TelemetrySnapshot) => string): TableRow => ({ cells: [t(`pdf.environment.telemetry.${label}`), pick(telemetry.start), pick(telemetry.end)] });
  layout.paragraph(t('pdf.environment.telemetry.intro'), { size: 8.5 });
  drawTable(layout, {
    fill: false,
    columns: [
      { title: t('pdf.environment.telemetry.reading'), width: 'wrap' },
      { title: t('pdf.environment.telemetry.start'), width: 'fit', align: 'right' },
      { title: t('pdf.environment.telemetry.end'), width: 'fit', align: 'right' },
    ],
    rows: [
      row('smClock', (s) => value(s.smClockMHz, 'mhz')),
      row('memoryClock', (s) => value(s.memoryClockMHz, 'mhz')),
      row('temperature', (s) => value(s.temperatureC, 'celsius')),
      row('power', (s) => value(s.powerW, 'watts')),
      row('throttle', throttle),
    ],
  });
}

// `telemetry` false where each run's chapter gives its own readings.
export function environmentSection(record: RunRecord, ctx: ReportContext, options: { telemetry: boolean } = { telemetry: true }): void {
  const { layout, t } = ctx;
  const list = record.environment.devices;
  if (!list) layout.paragraph(t('pdf.environment.unknown'));
  for (const device of list?.devices ?? []) {
    layout.heading(3, t(`pdf.environment.${device.kind}`, { id: device.id }));
    drawTable(layout, {
      header: false,
      columns: [
        { title: '', width: 'fit' },
        { title: '', width: 'wrap' },
      ],
      rows: deviceRows(device, ctx),
    });
  }
  if (list?.cudaReason) layout.paragraph(t('pdf.environment.noCuda', { reason: list.cudaReason }), { size: 8.5 });
  layout.heading(3, t('pdf.environment.versions'));
  const versions = Object.entries(record.environment.versions).map(([k, v]) => ({ cells: versionRow(k, v, t) }));
  // A multi-lab report names both versions elsewhere: its title page the one writing, each chapter the one measuring.
  if (options.telemetry) {
    versions.push({ cells: [t('pdf.environment.appMeasured'), record.appVersion] });
    versions.push({ cells: [t('pdf.environment.appWriting'), ctx.settings.writerVersion] });
  }
  drawTable(layout, { header: false, columns: [{ title: '', width: 'fit' }, { title: '', width: 'wrap' }], rows: versions });
  if (!options.telemetry) return;
  layout.heading(3, t('pdf.environment.telemetry.title'));
  telemetrySection(record, ctx);
}
