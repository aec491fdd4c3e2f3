// Findings of a run stored before findings were messages carry only their English text. Reading such a run, its lab
// analyses the recorded points again, and each finding whose fresh English is the very text recorded gets the fresh
// message beside it, so it reads in the reader's language; a finding the analysis now words differently (a newer
// version of the lab) keeps its recorded text only: the record's words are never replaced by what it did not say.
import type { DeviceSummary } from '../common/devices.ts';
import type { Finding, RunRecord } from '../common/run-record.ts';
import { findLab } from '../labs/index.ts';
import { runFindings } from './run-findings.ts';

export function withFindingMessages(record: RunRecord): RunRecord {
  if (record.findings.every((f) => f.message !== undefined)) return record;
  const fresh = freshFindings(record);
  if (fresh.size === 0) return record;
  const findings = record.findings.map((f) => {
    const again = fresh.get(f.id);
    return f.message === undefined && again?.message && again.text === f.text ? { ...f, message: again.message } : f;
  });
  return { ...record, findings };
}

function freshFindings(record: RunRecord): Map<string, Finding> {
  const lab = findLab(record.lab);
  const devices = record.environment.devices?.devices ?? [];
  const gpu: DeviceSummary | null = devices.find((d) => d.id === record.device && d.kind === 'cuda') ?? null;
  const cpu: DeviceSummary | null = devices.find((d) => d.kind === 'cpu') ?? null;
  const found: Finding[] = [];
  try {
    if (lab) found.push(...lab.analyze(record.points, record.params, gpu, cpu).findings);
  } catch {
    // An analysis that cannot read this record: its findings stay as recorded.
  }
  found.push(...runFindings(record.points, record.environment.cpuSteal ?? null));
  return new Map(found.map((f) => [f.id, f]));
}
