// The devices report (`gpu-lab report --devices`, the app's Compare devices): one lab across every device that has a
// run of it, a table of the devices and one of the headline points, each device read against device A. The rows come
// from the app's own functions (main/common/pure/charts/device-comparison.ts), so that the PDF and the app say the same.
import { cellText, columnTitle, deviceLetter, rowLabel } from '../common/pure/charts/device-comparison.ts';
import type { DevicesComparison } from '../common/contract/reports.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import { authorship } from './documents.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { ReportContext } from './report-context.ts';
import { dateText } from './report-context.ts';
import type { TableRow } from './table.ts';
import { drawTable } from './table.ts';

export function devicesSection(comparison: DevicesComparison, lab: LabDescriptor, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const k = (key: string): string => t(`machines.devices.${key}`);
  layout.paragraph(k('intro'), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  const unknown = k('unknown');
  drawTable(layout, {
    columns: [
      { title: k('facts.device'), width: 'fit' },
      { title: k('facts.model'), width: 'wrap' },
      { title: k('facts.cpu'), width: 'wrap' },
      { title: k('facts.node'), width: 'fit' },
      { title: k('facts.driver'), width: 'fit' },
      { title: k('facts.run'), width: 'wrap' },
      { title: k('facts.date'), width: 'fit' },
    ],
    rows: comparison.columns.map((c, i) => ({
      cells: [deviceLetter(i), `${c.gpu ?? c.cpu ?? c.device} (${c.device})`, c.cpu ?? unknown, c.node ?? unknown, c.driver ?? '—', c.runId, dateText(c.createdAt)],
    })),
  });
  const rows: TableRow[] = [];
  for (const row of comparison.rows) {
    rows.push({ cells: [{ text: rowLabel(row, lab), font: 'bold' }, '', '', '', '', ''], shaded: true });
    row.cells.forEach((cell, i) => {
      const text = cellText(cell, i === 0, t, lab);
      const column = comparison.columns[i];
      rows.push({ cells: [`  ${deviceLetter(i)} · ${column ? columnTitle(column, t) : ''}`, text.median, text.interval, text.rate, text.ratio, text.verdict] });
    });
  }
  const c = (key: string, width: 'fit' | 'wrap', align: 'left' | 'right' = 'left') => ({ title: k(`columns.${key}`), width, align });
  drawTable(layout, { columns: [c('point', 'wrap'), c('median', 'fit', 'right'), c('interval', 'fit', 'right'), c('rate', 'fit', 'right'), c('ratio', 'fit', 'right'), c('verdict', 'wrap')], rows });
}

// Every lab compared, a chapter each after the title block.
export function devicesDocument(comparisons: readonly DevicesComparison[], labs: readonly LabDescriptor[], title: string, ctx: ReportContext): void {
  const { layout } = ctx;
  layout.heading(1, title);
  authorship(ctx);
  comparisons.forEach((comparison, i) => {
    const lab = labs.find((l) => l.id === comparison.lab);
    if (!lab) return;
    if (i > 0 || comparisons.length > 1) layout.newPage();
    if (comparisons.length > 1) {
      layout.heading(1, lab.title);
      layout.doc.outline.addItem(lab.title);
    }
    devicesSection(comparison, lab, ctx);
  });
}
