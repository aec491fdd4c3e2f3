// "Device and environment": every device of the run with what the app knows of it (cores, caches, clocks, memory,
// its peaks with their arithmetic: device-rows.ts), the versions of everything that produced a number, and the GPU's
// telemetry when the run started and when it ended.
import { formatWhole } from '../common/pure/format.ts';
import { versionRow } from '../common/pure/i18n/version-text.ts';
import type { TelemetrySnapshot } from '../common/measurement.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';
import type { ReportContext } from './report-context.ts';
import type { TableRow } from './table.ts';
import { drawTable } from './table.ts';
import { datasheetOf, deviceRows } from './device-rows.ts';

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
  const value = (v: number | null, key: string): string => (v === null ? '—' : t(`pdf.environment.unit.${key}`, { value: formatWhole(v) }));
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
    const datasheet = datasheetOf(device);
    if (datasheet) layout.paragraph(t('pdf.environment.datasheetIntro', { document: datasheet }), { size: 8.5 });
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
  const versions = Object.entries(record.environment.versions).map(([k, v]) => ({ cells: versionRow(k, v, t, ctx.settings.locale, list?.blasWhat) }));
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
