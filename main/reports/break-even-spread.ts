// A break-even lab's crossings over the runs made with the same parameters on the same device, where there are three
// or more: the lowest and the highest each crossing took, so that a reader sees how far a second or a third run moved
// it (the DESIGN's promise: the break-even sizes stay within 1.5× over three runs). Each run's crossings are its
// lab's current analysis of its points (runs/current-findings.ts), to the two significant digits they are known to.
import { formatBreakEven, type SizeQuantity } from '../common/pure/format.ts';
import type { RunRecord } from '../common/run-record.ts';
import { withCurrentFindings } from '../runs/current-findings.ts';
import type { LabRun, ReportContext } from './report-context.ts';

// The fewest runs whose spread is said.
export const SPREAD_RUNS = 3;

// A summary's break-even by the series it belongs to: "add.gpu-resident.breakEvenSize" → add-gpu-resident,
// "gpu-transfers.breakEvenN" → gpu-transfers.
const BREAK_EVEN = /^(.+)\.breakEven(?:Size|N)$/;

function crossings(record: RunRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of Object.entries(withCurrentFindings(record).summary)) {
    const m = BREAK_EVEN.exec(key);
    if (m?.[1] && typeof value === 'number' && Number.isFinite(value)) out.set(m[1].replace('.', '-'), value);
  }
  return out;
}

// The sentence under the deliverable, or null with fewer than SPREAD_RUNS runs or no crossing found in all of them.
export function breakEvenSpreadText({ record, lab, repeats }: LabRun, ctx: ReportContext): string | null {
  const runs = [record, ...(repeats ?? [])];
  const quantity = lab.chart.x.quantity;
  if (runs.length < SPREAD_RUNS || quantity === 'category') return null;
  const each = runs.map(crossings);
  const size = (v: number): string => formatBreakEven(quantity as SizeQuantity, v);
  const items = [...(each[0]?.keys() ?? [])].flatMap((series) => {
    const values = each.map((c) => c.get(series)).filter((v): v is number => v !== undefined);
    if (values.length < runs.length) return [];
    const label = lab.series.find((s) => s.key === series)?.label ?? series;
    const [low, high] = [size(Math.min(...values)), size(Math.max(...values))];
    const kind = quantity === 'matrix-n' ? 'matrixN' : 'elements';
    return [low === high ? ctx.t(`pdf.deliverable.spread.${kind}Same`, { series: label, value: low }) : ctx.t(`pdf.deliverable.spread.${kind}`, { series: label, low, high })];
  });
  return items.length === 0 ? null : ctx.t('pdf.deliverable.spread.runs', { count: runs.length, items: items.join(ctx.t('pdf.deliverable.spread.separator')) });
}
