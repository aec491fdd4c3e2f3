// How the class's numbers read: a wait or a limit rounded up (what "at most" promises), and a run's summary numbers
// beside the class's, each named by its series and what it measures and written in its unit. Plain functions of
// their data, tested as functions.
import type { ClassMetric } from '../../../main/common/contract/classroom.ts';
import { formatBytes, formatCount, formatMs, formatPercent, formatRate, formatRelativeError, formatTimes } from '../../../main/common/pure/format.ts';
import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';

type Translate = (key: string, named?: Record<string, unknown>) => string;

// Seconds as "45 s" under a minute, else whole minutes rounded up: "at most 2 min" is never less than the time it
// stands for.
export function durationText(seconds: number, t: Translate): string {
  if (seconds < 60) return t('classroom.duration.seconds', { n: Math.max(0, Math.ceil(seconds)) });
  return t('classroom.duration.minutes', { n: Math.ceil(seconds / 60) });
}

const FORMATS: Record<string, (v: number, locale: Locale) => string> = {
  ms: (v, l) => formatMs(v, l),
  wrongMs: (v, l) => formatMs(v, l),
  rightMs: (v, l) => formatMs(v, l),
  gbps: (v, l) => formatRate(v, 'GB/s', l),
  peakGBps: (v, l) => formatRate(v, 'GB/s', l),
  gflops: (v, l) => formatRate(v, 'GFLOP/s', l),
  bestGflops: (v, l) => formatRate(v, 'GFLOP/s', l),
  speedupVsCpu: (v, l) => formatTimes(v, l),
  speedupAt1M: (v, l) => formatTimes(v, l),
  pinnedOverPageable: (v, l) => formatTimes(v, l),
  timeRatioToBus: (v, l) => formatTimes(v, l),
  breakEvenSize: (v, l) => formatCount(v, l),
  breakEvenN: (v, l) => formatCount(v, l),
  halfPeakBytes: (v, l) => formatBytes(v, l),
  footprintBytes: (v, l) => formatBytes(v, l),
  shareOfPeak: (v, l) => formatPercent(v, l),
  relativeError: (v, l) => formatRelativeError(v, l),
};

export interface MetricRow {
  key: string;
  label: string;
  yours: string;
  range: string;
  median: string;
  runs: number;
  students: number;
  outsideSizes: number;
}

// "add · GPU with copies · break-even size": each part of the key before the last a series of the lab where it is
// one, else as it stands (an operation, a data type); the last the measured quantity.
export function metricLabel(key: string, lab: LabDescriptor | undefined, t: Translate, known: (key: string) => boolean): string {
  const parts = key.split('.');
  const metric = parts.pop() ?? key;
  const names = parts.map((p) => lab?.series.find((s) => s.key === p)?.label ?? p);
  const what = known(`classroom.metric.${metric}`) ? t(`classroom.metric.${metric}`) : metric;
  return [...names, what].join(' · ');
}

export function metricRows(
  metrics: readonly ClassMetric[],
  summary: Record<string, number | null>,
  ctx: { lab: LabDescriptor | undefined; t: Translate; known: (key: string) => boolean; locale: Locale },
): MetricRow[] {
  return metrics
    .filter((m) => typeof summary[m.key] === 'number' || m.runs > 0)
    .map((m) => {
      const metric = m.key.split('.').pop() ?? m.key;
      const format = FORMATS[metric] ?? ((v: number, l: Locale) => formatCount(v, l));
      const show = (v: number | null | undefined): string => (typeof v === 'number' ? format(v, ctx.locale) : '—');
      return {
        key: m.key,
        label: metricLabel(m.key, ctx.lab, ctx.t, ctx.known),
        yours: show(summary[m.key]),
        range: m.min === null || m.max === null ? '—' : `${show(m.min)} – ${show(m.max)}`,
        median: show(m.median),
        runs: m.runs,
        students: m.students,
        outsideSizes: m.outsideSizes,
      };
    });
}
