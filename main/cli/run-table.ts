// The results table `gpu-lab run` prints as points arrive: one line per point, the headline figure first.
import { formatMs, formatRate, sig } from '../common/format.ts';
import type { PointResult } from '../common/run-record.ts';

const COLUMNS = [
  ['point', 38],
  ['status', 9],
  ['median', 10],
  ['min … max', 21],
  ['IQR', 9],
  ['rate', 13],
  ['rel. error', 10],
] as const;

function row(cells: string[]): string {
  return cells.map((c, i) => c.padEnd(COLUMNS[i]?.[1] ?? 10)).join(' ').trimEnd();
}

export function tableHeader(): string {
  return `${row(COLUMNS.map(([name]) => name))}\n${row(COLUMNS.map(([, w]) => '─'.repeat(w)))}\n`;
}

export function tableRow(p: PointResult): string {
  const s = p.stats;
  const label = p.label.length > 38 ? `${p.label.slice(0, 37)}…` : p.label;
  if (!s || p.status !== 'ok') {
    const why = p.error ? `${p.error.code}: ${p.error.message}` : p.reason ?? '';
    return `${row([label, p.status.toUpperCase()])} ${why}\n`;
  }
  const rate = p.gflops !== null && p.work.flops > 0 && (p.gbps === null || p.work.flops >= p.work.bytes) ? formatRate(p.gflops, 'GFLOP/s') : p.gbps !== null ? formatRate(p.gbps, 'GB/s') : '';
  const err = p.verification?.relativeError;
  return `${row([
    label,
    s.noisy ? 'ok noisy' : 'ok',
    formatMs(s.median),
    `${formatMs(s.min)} … ${formatMs(s.max)}`,
    `${sig((s.iqr / s.median) * 100, 2)} %`,
    rate,
    err === null || err === undefined ? (p.verification ? 'n/a' : '—') : err.toExponential(1),
  ])}\n`;
}
