// Exports of a run record: JSON (the record itself, raw samples included), CSV of points with their statistics,
// CSV of raw samples (one row per sample, for the user's own analysis).
import type { ExportFormat, ExportedRun } from '../common/contract/runs.ts';
import { csvTable as csv } from '../common/csv.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';

// Every row names its run and lab, so that the CSVs of several runs can be concatenated and still be told apart.
const POINT_COLUMNS = [
  'run_id', 'lab', 'key', 'series', 'label', 'x', 'device', 'status', 'reason', 'error_code', 'implementation', 'threads',
  'clock', 'warmup', 'repeats', 'samples', 'median_ms', 'ci_low_ms', 'ci_high_ms', 'mean_ms', 'std_ms', 'min_ms', 'max_ms',
  'p95_ms', 'iqr_ms', 'noisy', 'gflops', 'gbps', 'flops', 'bytes', 'elements', 'verified', 'relative_error', 'tolerance',
];

function pointRow(record: RunRecord, p: PointResult): (string | number | boolean | null)[] {
  const s = p.stats;
  return [
    record.id, record.lab, p.key, p.series, p.label, p.x, p.device, p.status, p.reason, p.error?.code ?? null, p.implementation,
    p.threads, p.clock, p.warmup, p.repeats, s?.count ?? null, s?.median ?? null, s?.ciLow ?? null, s?.ciHigh ?? null,
    s?.mean ?? null, s?.std ?? null, s?.min ?? null, s?.max ?? null, s?.p95 ?? null, s?.iqr ?? null, s?.noisy ?? null,
    p.gflops, p.gbps, p.work.flops, p.work.bytes, p.work.elements, p.verification?.passed ?? null,
    p.verification?.relativeError ?? null, p.verification?.tolerance ?? null,
  ];
}

export function pointsCsv(record: RunRecord): string {
  return csv(POINT_COLUMNS, record.points.map((p) => pointRow(record, p)));
}

export function samplesCsv(record: RunRecord): string {
  const rows: (string | number | null)[][] = [];
  for (const p of record.points) {
    p.hostMs.forEach((host, i) => rows.push([record.id, record.lab, p.key, p.series, p.x, p.device, i, host, p.deviceMs?.[i] ?? null]));
  }
  return csv(['run_id', 'lab', 'key', 'series', 'x', 'device', 'sample', 'host_ms', 'device_ms'], rows);
}

export function exportRun(record: RunRecord, format: ExportFormat): ExportedRun {
  switch (format) {
    case 'json':
      return { filename: `${record.id}.json`, mimeType: 'application/json', text: `${JSON.stringify(record, null, 2)}\n` };
    case 'csv':
      return { filename: `${record.id}.csv`, mimeType: 'text/csv', text: pointsCsv(record) };
    case 'csv-samples':
      return { filename: `${record.id}-samples.csv`, mimeType: 'text/csv', text: samplesCsv(record) };
  }
}
