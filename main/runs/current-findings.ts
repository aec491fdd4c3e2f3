// The findings a record is read with are derived again from its points by its lab's current analysis, whenever it is
// read, shown or reported: an old record never repeats a sentence the analysis has since corrected, and every
// finding carries its message, so that it reads in the reader's language. A run still in progress keeps the
// runner's provisional findings; a record whose analysis cannot run (a lab this version no longer knows, points it
// cannot read) keeps what it recorded. The record says which analysis its findings come from (analysisVersion).
import type { DeviceSummary } from '../common/devices.ts';
import type { Finding, RunRecord } from '../common/run-record.ts';
import { ANALYSIS_VERSION, findLab } from '../labs/index.ts';
import { runFindings } from './run-findings.ts';

export function withCurrentFindings(record: RunRecord): RunRecord {
  if (record.status === 'queued' || record.status === 'running') return record;
  const lab = findLab(record.lab);
  if (!lab) return record;
  const devices = record.environment.devices?.devices ?? [];
  const gpu: DeviceSummary | null = devices.find((d) => d.id === record.device && d.kind === 'cuda') ?? null;
  const cpu: DeviceSummary | null = devices.find((d) => d.kind === 'cpu') ?? null;
  let findings: Finding[];
  let summary: RunRecord['summary'];
  try {
    const analysis = lab.analyze(record.points, record.params, gpu, cpu);
    findings = [...analysis.findings, ...runFindings(record.points, record.environment.cpuSteal ?? null, lab.descriptor)];
    summary = analysis.summary;
  } catch {
    return record;
  }
  return { ...record, summary, findings, analysisVersion: ANALYSIS_VERSION };
}
