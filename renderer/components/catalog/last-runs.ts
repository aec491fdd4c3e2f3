// The run each lab's card speaks of: the lab's newest run that completed with points measured. A run still going, one
// cancelled half-way or one that failed has no finished chart to show; the card keeps the last one that does.
import type { RunSummary } from '../../../main/common/run-record.ts';

export function lastFinishedRuns(summaries: readonly RunSummary[]): Map<string, RunSummary> {
  const byLab = new Map<string, RunSummary>();
  for (const run of summaries) {
    if (run.status !== 'completed' || run.points === 0) continue;
    const kept = byLab.get(run.lab);
    if (!kept || Date.parse(run.createdAt) > Date.parse(kept.createdAt)) byLab.set(run.lab, run);
  }
  return byLab;
}
