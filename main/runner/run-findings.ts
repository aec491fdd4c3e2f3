// Findings every run gets whatever its lab: what could not run and why, what failed, and which figures are noisy.
import { formatPercent } from '../common/format.ts';
import type { Finding, PointResult } from '../common/run-record.ts';

export function runFindings(points: readonly PointResult[]): Finding[] {
  const findings: Finding[] = [];
  const waived = points.filter((p) => p.status === 'waived');
  const reasons = [...new Set(waived.map((p) => p.reason ?? 'no reason given'))];
  for (const reason of reasons) {
    const count = waived.filter((p) => (p.reason ?? 'no reason given') === reason).length;
    findings.push({ id: `waived-${findings.length}`, text: `${count} point${count === 1 ? ' was' : 's were'} WAIVED: ${reason}.`, value: count, unit: 'points', tone: 'info' });
  }
  const wrong = points.filter((p) => p.error?.code === 'VERIFICATION_FAILED');
  if (wrong.length) {
    findings.push({
      id: 'verification-failed',
      text: `${wrong.length} result${wrong.length === 1 ? '' : 's'} failed verification against the float64 reference and ${wrong.length === 1 ? 'is' : 'are'} shown as failed, not as times: ${wrong.map((p) => p.label).slice(0, 3).join('; ')}.`,
      value: wrong.length,
      unit: 'points',
      tone: 'warning',
    });
  }
  const failed = points.filter((p) => p.status === 'failed' && p.error?.code !== 'VERIFICATION_FAILED');
  if (failed.length) {
    const first = failed[0];
    findings.push({
      id: 'points-failed',
      text: `${failed.length} point${failed.length === 1 ? '' : 's'} failed to measure${first?.error ? ` (first: ${first.label}: ${first.error.code}, ${first.error.message})` : ''}.`,
      value: failed.length,
      unit: 'points',
      tone: 'warning',
    });
  }
  const noisy = points.filter((p) => p.stats?.noisy);
  if (noisy.length) {
    const worst = noisy.reduce((a, b) => ((a.stats?.iqr ?? 0) / (a.stats?.median ?? 1) >= (b.stats?.iqr ?? 0) / (b.stats?.median ?? 1) ? a : b));
    const spread = (worst.stats?.iqr ?? 0) / (worst.stats?.median ?? 1);
    findings.push({
      id: 'noisy',
      text: `${noisy.length} point${noisy.length === 1 ? ' is' : 's are'} noisy (IQR over 10 % of the median; worst: ${worst.label}, ${formatPercent(spread)}): another program was busy or the clocks were changing; rerun before trusting ${noisy.length === 1 ? 'it' : 'them'}.`,
      value: noisy.length,
      unit: 'points',
      tone: 'warning',
    });
  }
  return findings;
}
