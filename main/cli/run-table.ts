// The results table `gpu-lab run` and `gpu-lab runs show` print: one line per point, the headline figure first, in
// the language the CLI speaks (its numbers with a decimal comma in Spanish).
import { formatInterval, formatMs, formatPercent, formatRate } from '../common/pure/format.ts';
import { MIN_INTERVAL_SAMPLES } from '../common/pure/statistics.ts';
import { localizeDecimal, type Locale } from '../common/pure/locale.ts';
import { shareOfPeak, type PointResult } from '../common/run-record.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import { pointText } from '../labs/lab-text.ts';
import type { CliText } from './cli-text.ts';
import { errorText, pointReason } from '../common/pure/i18n/error-text.ts';
import { translator } from '../common/pure/i18n/index.ts';
import { renderMessage, type Message } from '../common/pure/message.ts';

const COLUMNS = ['point', 'status', 'median', 'interval', 'range', 'iqr', 'samples', 'rate', 'ofPeak', 'relativeError'] as const;
// The width each column needs for its figures; a heading or a status word that is wider widens it. The interval is
// "±1.3 %" or, lopsided, its two ends: "[957.8 µs, 1.057 ms]".
const WIDTHS = [38, 9, 10, 21, 21, 9, 12, 13, 14, 10] as const;

export interface RunTable {
  header(): string;
  row(p: PointResult, explained?: ReadonlySet<string>): string;
}

// `lab`: the descriptor of the run's lab, whose words name a point recorded before points had names.
export function runTable(t: CliText, locale: Locale, lab?: LabDescriptor): RunTable {
  const statusWords = [t('table.ok'), t('table.okNoisy'), ...(['failed', 'waived', 'cancelled'] as const).map((s) => t(`table.pointStatus.${s}`))];
  const widths = COLUMNS.map((c, i) => Math.max(WIDTHS[i] ?? 10, t(`table.${c}`).length, ...(c === 'status' ? statusWords.map((w) => w.length) : [])));
  const [labelWidth = 38] = widths;
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join(' ').trimEnd();
  const exponent = (x: number): string => localizeDecimal(x.toExponential(1), locale);
  return {
    header: () => `${line(COLUMNS.map((c) => t(`table.${c}`)))}\n${line(widths.map((w) => '─'.repeat(w)))}\n`,
    // `explained`: waiver reasons already said above the table; such rows only say WAIVED.
    row(p, explained = new Set()) {
      const s = p.stats;
      const text = pointText(p, locale, lab);
      const name = text.length > labelWidth ? `${text.slice(0, labelWidth - 1)}…` : text;
      if (!s || p.status !== 'ok') {
        const status = t(`table.pointStatus.${p.status}`);
        if (p.status === 'waived' && explained.has(p.reason ?? '')) return `${line([name, status])}\n`;
        const why = p.error ? t('error.coded', { code: p.error.code, detail: errorText(p.error, translator(locale), locale) }) : pointReason(p, translator(locale), locale);
        return `${line([name, status])} ${why}`.trimEnd() + '\n';
      }
      const rate = p.gflops !== null && p.work.flops > 0 && (p.gbps === null || p.work.flops >= p.work.bytes) ? formatRate(p.gflops, 'GFLOP/s', locale) : p.gbps !== null ? formatRate(p.gbps, 'GB/s', locale) : '';
      const err = p.verification?.relativeError;
      // How many samples the median rests on, and why sampling stopped where it did not converge; fewer than an
      // interval needs is said in words at the end of the row.
      const n = p.sampling?.samples ?? s.count;
      const stop = p.sampling?.stop;
      const samples = stop === 'budget' ? t('table.samplesBudget', { count: n }) : stop === 'max-samples' ? t('table.samplesCap', { count: n }) : String(n);
      const tooFew = n < MIN_INTERVAL_SAMPLES ? ` ${t('table.tooFew', { count: n })}` : '';
      // The rate's share of its peak as it is (130 %, never clamped); of the CPU's estimated peak, marked so.
      const share = shareOfPeak(p);
      const ofPeak = share === null ? '—' : p.peak?.source === 'estimate' ? t('table.peakEstimate', { share: formatPercent(share, locale) }) : p.peak?.source === 'measured' ? t('table.peakMeasured', { share: formatPercent(share, locale) }) : formatPercent(share, locale);
      return `${line([
        name,
        s.noisy ? t('table.okNoisy') : t('table.ok'),
        formatMs(s.median, locale),
        s.ciLow === null || s.ciLow === undefined || s.ciHigh === null || s.ciHigh === undefined ? '—' : formatInterval(s.median, s.ciLow, s.ciHigh, formatMs, locale),
        `${formatMs(s.min, locale)} … ${formatMs(s.max, locale)}`,
        formatPercent(s.iqr / s.median, locale),
        samples,
        rate,
        ofPeak,
        err === null || err === undefined ? (p.verification ? t('table.notApplicable') : '—') : exponent(err),
      ])}${tooFew}`.trimEnd() + '\n';
    },
  };
}

// The line said once above the table for each reason points are waived: "WAIVED (42 points): no CUDA device: …".
export function waivedNote(waived: readonly { reason: string; points: number; why?: Message }[], t: CliText, locale: Locale): string {
  const said = (w: { reason: string; why?: Message }): string => (w.why ? renderMessage(w.why, translator(locale), locale) : w.reason) || t('table.noReason');
  return waived.map((w) => `${t('table.waived', { count: w.points, reason: said(w) })}\n`).join('');
}
