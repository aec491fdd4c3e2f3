// The rows of a run's results table, one per point, every figure formatted: the median time and its spread, the
// rate, its share of the device's peak, the speedup over its baseline, the verification, and for a point that was
// not measured, why. Plain data, so that the table renders without working out anything per row.
import type { LabDescriptor } from '../../lab-descriptor.ts';
import type { PointResult, PointStatus, RunRecord } from '../../run-record.ts';
import { pointLabel } from './point-label.ts';
import { baselineKey, pointRate, pointsByKey, seriesOf, shareOfPeak, speedupOver } from './points.ts';
import type { Translate } from './text.ts';
import { PEER_LIBRARY_NAMES } from '../peer-libraries.ts';
import { formatInterval, formatMs, formatPercent, formatRate, formatRelativeError, formatTimes } from '../format.ts';
import { pointReason } from '../i18n/error-text.ts';
import { MIN_INTERVAL_SAMPLES } from '../statistics.ts';

export type VerifiedState = 'passed' | 'failed' | 'unchecked';

export interface ResultRow {
  key: string;
  series: string;
  label: string;
  device: string;
  status: PointStatus;
  statusText: string;
  median: string;
  // The median's 95 % confidence interval: ±x % of it where it is about symmetric, else [low, high] (format.ts
  // formatInterval); — below the samples an interval needs.
  interval: string;
  // How many samples the median rests on, why sampling stopped where it did not converge, and "too few to judge"
  // below the samples an interval needs.
  samples: string;
  iqr: string;
  range: string;
  rate: string;
  // The rate's share of its peak, unclamped ("130 %"); one read against the CPU's estimated peak is marked so
  // ("84 % (est.)") and peakEstimate is true.
  shareOfPeak: string;
  peakEstimate: boolean;
  // A share of a measured yardstick (the CPU's memory bandwidth): "84 % (meas.)".
  peakMeasured: boolean;
  speedup: string;
  // The series the speedup is over, or '' where the point has none.
  speedupOver: string;
  verified: VerifiedState;
  // ✓ or ✗; verifiedText says the same in words, with the error and the tolerance.
  verifiedMark: string;
  verifiedText: string;
  noisy: boolean;
  // Why a point is waived, failed or was not measured; '' for a measured point.
  reason: string;
  // The course's own code measured this point (a Python peer): its library's name, shown apart; '' for the engine's.
  peer: string;
}

const DASH = '—';

function verification(p: PointResult, t: Translate): Pick<ResultRow, 'verified' | 'verifiedMark' | 'verifiedText'> {
  const v = p.verification;
  if (!v) return { verified: 'unchecked', verifiedMark: '', verifiedText: t('results.table.verified.unchecked') };
  const named = { error: formatRelativeError(v.relativeError), tolerance: formatRelativeError(v.tolerance) };
  return v.passed
    ? { verified: 'passed', verifiedMark: '✓', verifiedText: t('results.table.verified.passed', named) }
    : { verified: 'failed', verifiedMark: '✗', verifiedText: t('results.table.verified.failed', named) };
}

function samplesText(p: PointResult, count: number, t: Translate): string {
  if (count < MIN_INTERVAL_SAMPLES) return t('results.table.samples.tooFew', { count }, count);
  const stop = p.sampling?.stop;
  if (stop === 'budget') return t('results.table.samples.budget', { count });
  if (stop === 'max-samples') return t('results.table.samples.cap', { count });
  return String(count);
}

// A share of the peak as it is, over 100 % too; against an estimate (the CPU's, common/cpu-peaks.ts), marked as one.
export function shareText(share: number, p: PointResult, t: Translate): string {
  if (p.peak?.source === 'measured') return t('results.table.peakMeasured', { share: formatPercent(share) });
  return p.peak?.source === 'estimate' ? t('results.table.peakEstimate', { share: formatPercent(share) }) : formatPercent(share);
}

function peerOf(lab: LabDescriptor, series: string, t: Translate): string {
  const library = seriesOf(lab, series)?.peer;
  return library ? t('results.table.peer', { library: PEER_LIBRARY_NAMES[library] }) : '';
}

export function resultRow(p: PointResult, lab: LabDescriptor, baseline: PointResult | undefined, t: Translate): ResultRow {
  const stats = p.status === 'ok' ? p.stats : null;
  const rate = p.status === 'ok' ? pointRate(p, lab.chart.y.quantity) : null;
  const share = shareOfPeak(p);
  const speedup = speedupOver(p, baseline);
  const baselineSeries = seriesOf(lab, p.series)?.baseline;
  return {
    key: p.key,
    series: p.series,
    label: pointLabel(p, lab, t),
    device: p.device,
    status: p.status,
    statusText: t(`results.status.${p.status}`),
    median: stats ? formatMs(stats.median) : DASH,
    interval: stats && stats.ciLow !== null && stats.ciLow !== undefined && stats.ciHigh !== null && stats.ciHigh !== undefined ? formatInterval(stats.median, stats.ciLow, stats.ciHigh) : DASH,
    samples: stats ? samplesText(p, p.sampling?.samples ?? stats.count, t) : DASH,
    iqr: stats ? formatMs(stats.iqr) : DASH,
    range: stats ? `${formatMs(stats.min)} – ${formatMs(stats.max)}` : DASH,
    rate: rate ? formatRate(rate.value, rate.unit) : DASH,
    shareOfPeak: share === null ? DASH : shareText(share, p, t),
    peakEstimate: share !== null && p.peak?.source === 'estimate',
    peakMeasured: share !== null && p.peak?.source === 'measured',
    speedup: speedup === null ? DASH : formatTimes(speedup),
    speedupOver: baselineSeries === undefined ? '' : (seriesOf(lab, baselineSeries)?.label ?? baselineSeries),
    ...verification(p, t),
    noisy: stats?.noisy ?? false,
    reason: pointReason(p, t),
    peer: peerOf(lab, p.series, t),
  };
}

export function resultRows(record: RunRecord, lab: LabDescriptor, t: Translate): ResultRow[] {
  const byKey = pointsByKey(record);
  return record.points.map((p) => {
    const key = baselineKey(lab, p);
    return resultRow(p, lab, key === null ? undefined : byKey.get(key), t);
  });
}
