// The findings a record is read with are derived again from its points by its lab's current analysis, whenever it is
// read, shown or reported: an old record never repeats a sentence the analysis has since corrected, and every
// finding carries its message, so that it reads in the reader's language. A run still in progress keeps the
// runner's provisional findings; a record whose analysis cannot run (a lab this version no longer knows, points it
// cannot read) keeps what it recorded. The record says which analysis its findings come from (analysisVersion). The
// numbers are read as stored (their statistics are the runner's, its samples' that count); a record of an older
// schema version has had its numbers brought to this version's once, as it was read (stored-record.ts).
import type { DeviceSummary } from '../common/devices.ts';
import { isGpu } from '../common/devices.ts';
import type { Finding, RunRecord } from '../common/run-record.ts';
import { ANALYSIS_VERSION, findLab } from '../labs/index.ts';
import { runFindings } from './run-findings.ts';

// The run's GPU (a CUDA device or a WebGPU adapter) and CPU, as its record lists them.
export function runDevices(record: RunRecord): { gpu: DeviceSummary | null; cpu: DeviceSummary | null } {
  const devices = record.environment.devices?.devices ?? [];
  return { gpu: devices.find((d) => d.id === record.device && isGpu(d)) ?? null, cpu: devices.find((d) => d.kind === 'cpu') ?? null };
}

export function withCurrentFindings(record: RunRecord): RunRecord {
  if (record.status === 'queued' || record.status === 'running') return record;
  const lab = findLab(record.lab);
  if (!lab) return record;
  const { gpu, cpu } = runDevices(record);
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
