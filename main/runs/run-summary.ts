// A run as the history lists it (run-record.ts summarizeRun), led by the finding its lab puts first: from the record's
// own findings where they come from this version's analysis, else derived again as a reader of the run would see them
// (current-findings.ts), so that the history's number is the run page's.
import { summarizeRun } from '../common/run-record.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { ANALYSIS_VERSION, findLab } from '../labs/index.ts';
import { withCurrentFindings } from './current-findings.ts';

export function runSummary(record: RunRecord): RunSummary {
  const current = record.analysisVersion === ANALYSIS_VERSION ? record : withCurrentFindings(record);
  return summarizeRun(current, findLab(record.lab)?.descriptor.headline ?? []);
}
