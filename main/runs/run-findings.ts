// Findings every run gets whatever its lab: what could not run and why, what failed, and which figures are noisy.
// Their sentences are messages of the labs' catalog (common.run.*), read in the reader's language, and so are the
// points they name (each point's name) and the reasons points were waived (each point's `why`); a failure is named by
// its error code.
import { msg, n, type Message, type MessageValue } from '../common/pure/message.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { Finding, PointResult } from '../common/run-record.ts';
import { finding } from '../labs/analysis.ts';
import { pointMessage } from '../labs/lab-text.ts';
import type { labText as labTextEn } from '../common/pure/i18n/en/lab-text.ts';
import { intervalHalfWidth } from '../common/pure/statistics.ts';

const m = (key: keyof typeof labTextEn.common.run, values?: Record<string, MessageValue>): Message => msg(`common.run.${key}`, values);

function pointsFinding(id: string, text: Message, count: number, tone: 'info' | 'warning'): Finding {
  return finding(id, text, count, 'points', tone);
}

// From this share of stolen CPU time a run says so (cpu-steal.ts): below it, a busy host's noise is the usual kind.
const STEAL_WORTH_SAYING = 0.05;

// How uncertain a point's median is, as a share of it: the farther end of its 95 % interval (the figure the tables
// show as ±); a record from before intervals were kept has the half of its IQR instead.
function uncertainty(p: PointResult): number {
  const s = p.stats;
  if (!s || s.median <= 0) return 0;
  return intervalHalfWidth(s) ?? s.iqr / 2 / s.median;
}

// From this fall between a point's clock reading before it and after it a run says the clock dropped during it.
const CLOCK_DROP_WORTH_SAYING = 0.05;

// The measured points whose clock was CLOCK_DROP_WORTH_SAYING or more lower after them than before, and the one that
// fell most; null where none did or nothing was read. Only a fall is a claim: the reading before a point is taken
// before its warm-up, when an idle CPU or GPU may still be at a low clock, so a rise shows the clock ramping up for
// the work, which the warm-up is there to absorb; a fall below even that reading shows the chip slowed down (heat,
// power) while the point was measured.
function clockDrops(points: readonly PointResult[], clocks: (p: PointResult) => [number | null, number | null] | null): { count: number; from: number; to: number; point: PointResult } | null {
  let count = 0;
  let most: { from: number; to: number; point: PointResult; change: number } | null = null;
  for (const p of points) {
    if (p.status !== 'ok') continue;
    const [from, to] = clocks(p) ?? [null, null];
    if (from === null || to === null || !(from > 0) || !(to > 0)) continue;
    const change = (from - to) / from;
    if (change < CLOCK_DROP_WORTH_SAYING) continue;
    count++;
    if (!most || change > most.change) most = { from, to, point: p, change };
  }
  return most ? { count, from: most.from, to: most.to, point: most.point } : null;
}

export function runFindings(points: readonly PointResult[], cpuSteal: number | null = null, lab?: LabDescriptor): Finding[] {
  const findings: Finding[] = [];
  if (cpuSteal !== null && cpuSteal >= STEAL_WORTH_SAYING) {
    findings.push(finding('cpu-steal', m('steal', { share: n.percent(cpuSteal) }), cpuSteal, 'share', 'warning'));
  }
  const waived = points.filter((p) => p.status === 'waived');
  for (const reason of new Set(waived.map((p) => p.reason ?? null))) {
    const alike = waived.filter((p) => (p.reason ?? null) === reason);
    const said = alike.find((p) => p.why)?.why ?? reason ?? m('noReason');
    findings.push(pointsFinding(`waived-${findings.length}`, m('waived', { count: alike.length, reason: said }), alike.length, 'info'));
  }
  const wrong = points.filter((p) => p.error?.code === 'VERIFICATION_FAILED');
  if (wrong.length) {
    const [w1, w2, w3] = wrong.map((p) => pointMessage(p, lab));
    const named = w3 !== undefined && w2 !== undefined && w1 !== undefined ? m('threePoints', { a: w1, b: w2, c: w3 }) : w2 !== undefined && w1 !== undefined ? m('twoPoints', { a: w1, b: w2 }) : (w1 ?? '');
    findings.push(pointsFinding('verification-failed', m('verificationFailed', { count: wrong.length, points: named }), wrong.length, 'warning'));
  }
  const failed = points.filter((p) => p.status === 'failed' && p.error?.code !== 'VERIFICATION_FAILED');
  const first = failed[0];
  if (first) {
    const cause = first.error ? m('firstFailure', { point: pointMessage(first, lab), code: first.error.code }) : '';
    findings.push(pointsFinding('points-failed', m('pointsFailed', { count: failed.length, first: cause }), failed.length, 'warning'));
  }
  const stolen = points.filter((p) => (p.sampling?.cpuSteal ?? 0) >= STEAL_WORTH_SAYING);
  if (stolen.length) {
    const worst = stolen.reduce((a, b) => ((a.sampling?.cpuSteal ?? 0) >= (b.sampling?.cpuSteal ?? 0) ? a : b));
    findings.push(pointsFinding('points-steal', m('pointsSteal', { count: stolen.length, share: n.percent(worst.sampling?.cpuSteal ?? 0), point: pointMessage(worst, lab) }), stolen.length, 'warning'));
  }
  const gpuClock = clockDrops(points, (p) => (p.telemetry ? [p.telemetry.start.smClockMHz, p.telemetry.end.smClockMHz] : null));
  if (gpuClock) findings.push(pointsFinding('gpu-clock-dropped', m('gpuClockDropped', { count: gpuClock.count, from: n.int(gpuClock.from), to: n.int(gpuClock.to), point: pointMessage(gpuClock.point, lab) }), gpuClock.count, 'warning'));
  const cpuClock = clockDrops(points, (p) => (p.sampling?.cpuClockMHz ? [p.sampling.cpuClockMHz.start, p.sampling.cpuClockMHz.end] : null));
  if (cpuClock) findings.push(pointsFinding('cpu-clock-dropped', m('cpuClockDropped', { count: cpuClock.count, from: n.int(cpuClock.from), to: n.int(cpuClock.to), point: pointMessage(cpuClock.point, lab) }), cpuClock.count, 'warning'));
  const noisy = points.filter((p) => p.stats?.noisy);
  if (noisy.length) {
    const worst = noisy.reduce((a, b) => (uncertainty(a) >= uncertainty(b) ? a : b));
    const s = worst.stats;
    // The worst point's interval as the tables write it: ±x % where it is about symmetric, else its two ends.
    const spread = s && s.ciLow !== null && s.ciLow !== undefined && s.ciHigh !== null && s.ciHigh !== undefined ? n.interval(s.median, s.ciLow, s.ciHigh) : n.interval(1, 1 - uncertainty(worst), 1 + uncertainty(worst));
    findings.push(pointsFinding('noisy', m('noisy', { count: noisy.length, point: pointMessage(worst, lab), spread }), noisy.length, 'warning'));
  }
  return findings;
}
