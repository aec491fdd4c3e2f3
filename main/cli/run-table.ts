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

// The line said once above the table for each reason points are waived: "WAIVED (42 points): no CUDA device: …".
export function waivedNote(waived: readonly { reason: string; points: number }[]): string {
  return waived.map((w) => `WAIVED (${w.points} point${w.points === 1 ? '' : 's'}): ${w.reason || 'no reason given'}\n`).join('');
}

// `explained`: waiver reasons already said above the table; such rows only say WAIVED.
export function tableRow(p: PointResult, explained: ReadonlySet<string> = new Set()): string {
  const s = p.stats;
  const label = p.label.length > 38 ? `${p.label.slice(0, 37)}…` : p.label;
  if (!s || p.status !== 'ok') {
    if (p.status === 'waived' && explained.has(p.reason ?? '')) return `${row([label, 'WAIVED'])}\n`.replace(/ +\n$/, '\n');
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
