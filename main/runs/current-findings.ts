// The findings a record is read with are derived again from its points by its lab's current analysis, whenever it is
// read, shown or reported: an old record never repeats a sentence the analysis has since corrected, and every
// finding carries its message, so that it reads in the reader's language. A run still in progress keeps the
// runner's provisional findings; a record whose analysis cannot run (a lab this version no longer knows, points it
// cannot read) keeps what it recorded. The record says which analysis its findings come from (analysisVersion). The
// points' statistics are computed again from their samples too, their work and peaks counted as this version
// counts them (current-work.ts), and a reason recorded in English only given its message (common/host-reasons.ts).
import type { DeviceSummary } from '../common/devices.ts';
import type { Finding, PointResult, RunRecord } from '../common/run-record.ts';
import { recordedReasonWhy } from '../common/host-reasons.ts';
import { summarize } from '../common/statistics.ts';
import { ANALYSIS_VERSION, findLab } from '../labs/index.ts';
import { withCurrentWork } from './current-work.ts';
import { runFindings } from './run-findings.ts';

// A measured point's statistics from its samples, as this version computes them (the median's interval and what
// "noisy" means were added since): a record from before reads with today's statistics.
function restated(p: PointResult): PointResult {
  if (p.status !== 'ok' && !p.why && p.reason) {
    // Its reason as a message, for readers of other languages (a record from before reasons were messages).
    const why = recordedReasonWhy(p.reason);
    return why ? { ...p, why } : p;
  }
  if (p.status !== 'ok' || !p.stats) return p;
  const samples = p.timer === 'device' && p.deviceMs ? p.deviceMs : p.hostMs;
  if (samples.length !== p.stats.count || samples.length === 0) return p;
  return { ...p, stats: summarize(samples) };
}

export function withCurrentFindings(stored: RunRecord): RunRecord {
  if (stored.status === 'queued' || stored.status === 'running') return stored;
  const lab = findLab(stored.lab);
  if (!lab) return stored;
  const devices = stored.environment.devices?.devices ?? [];
  const gpu: DeviceSummary | null = devices.find((d) => d.id === stored.device && d.kind === 'cuda') ?? null;
  const cpu: DeviceSummary | null = devices.find((d) => d.kind === 'cpu') ?? null;
  const record = withCurrentWork({ ...stored, points: stored.points.map(restated) }, lab, cpu, gpu);
  let findings: Finding[];
  let summary: RunRecord['summary'];
  try {
    const analysis = lab.analyze(record.points, record.params, gpu, cpu);
    findings = [...analysis.findings, ...runFindings(record.points, record.environment.cpuSteal ?? null, lab.descriptor)];
    summary = analysis.summary;
  } catch {
    return stored;
  }
  return { ...record, summary, findings, analysisVersion: ANALYSIS_VERSION };
}
