// Which finding a run leads with, and the order of the rest: the headline is the first of the lab's `headline` ids the
// run has, else its first finding about the lab (not about the run: its noise, its clocks, its waived series); the
// warnings come next, then the other findings in the lab's order. The app's findings and the PDF read them alike.
import type { Finding } from '../run-record.ts';

// The findings every run may carry whatever its lab (main/runs/run-findings.ts): about how the run went.
const RUN_FINDINGS = new Set(['cpu-steal', 'verification-failed', 'points-failed', 'points-steal', 'gpu-clock-dropped', 'cpu-clock-dropped', 'noisy']);

export function isRunFinding(id: string): boolean {
  return RUN_FINDINGS.has(id) || /^waived-\d+$/.test(id);
}

export interface OrderedFindings<F extends Pick<Finding, 'id' | 'tone'>> {
  headline: F | null;
  rest: F[];
}

export function orderFindings<F extends Pick<Finding, 'id' | 'tone'>>(findings: readonly F[], headline: readonly string[]): OrderedFindings<F> {
  const lead = headline.map((id) => findings.find((f) => f.id === id)).find((f) => f !== undefined) ?? findings.find((f) => !isRunFinding(f.id)) ?? null;
  const others = findings.filter((f) => f !== lead);
  return { headline: lead, rest: [...others.filter((f) => f.tone === 'warning'), ...others.filter((f) => f.tone !== 'warning')] };
}

// The findings a run is summed up by, by id: the lab's headline ids the run has, in the lab's order; where it has none
// of them, its headline as orderFindings picks it. A class's table has a column for each, and its CSV a slot.
export function headlineIds(findings: readonly Pick<Finding, 'id' | 'tone'>[], headline: readonly string[]): string[] {
  const ids = headline.filter((id) => findings.some((f) => f.id === id));
  if (ids.length > 0) return ids;
  const lead = orderFindings(findings, headline).headline;
  return lead ? [lead.id] : [];
}
