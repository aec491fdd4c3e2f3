// In a run's report, the reference results of other machines beside its numbers (main/common/pure/charts/reference-rows.ts,
// as the app's run page shows them), each under a heading that names the machine as another one.
import { rateText, referenceBlocks, referenceMachine, timeWithInterval, verdictText } from '../common/pure/charts/reference-rows.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import { drawTable } from './table.ts';

// Beside a run's own numbers: each reference of its lab with points like the run's, under a heading that says whose.
export function referencesSection(run: LabRun, ctx: ReportContext): void {
  const blocks = referenceBlocks(run.record, run.lab, ctx.settings.references).filter((b) => b.rows.length > 0);
  if (blocks.length === 0) return;
  const { layout, t } = ctx;
  const k = (key: string): string => t(`machines.reference.${key}`);
  layout.heading(2, k('title'));
  layout.paragraph(k('intro'), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  for (const block of blocks) {
    layout.paragraph(`${referenceMachine(block, t)} (${t(`machines.reference.origin.${block.result.origin}`)})`, { font: 'bold', size: SIZES.small + 0.5 });
    const c = (key: string, width: 'fit' | 'wrap', align: 'left' | 'right' = 'left') => ({ title: k(`columns.${key}`), width, align });
    drawTable(layout, {
      columns: [c('point', 'wrap'), c('yours', 'fit', 'right'), c('theirs', 'fit', 'right'), c('rate', 'fit', 'right'), c('verdict', 'wrap')],
      rows: block.rows.map((row) => ({ cells: [row.label, timeWithInterval(row.yours, t), timeWithInterval(row.theirs, t), rateText(row.theirs), verdictText(row, t)] })),
    });
  }
}
