// The sections that put two runs side by side, as the app's comparison view does: their facts, their parameters with
// those that differ marked, the chart of both, and every point's median in both runs with B ÷ A.
import { compareChart } from '../common/pure/charts/compare-chart.ts';
import { compareRows, paramRows } from '../common/pure/charts/compare-rows.ts';
import { LIGHT_CHART_THEME } from '../common/pure/charts/palette.ts';
import type { LabDescriptor } from '../common/lab-descriptor.ts';
import type { RunRecord } from '../common/run-record.ts';
import { chartHeight, chartPng, reportChartSize } from './chart-image.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import { dateText, deviceName } from './report-context.ts';
import type { TableRow } from './table.ts';
import { drawTable } from './table.ts';

const runColumns = (ctx: ReportContext, first: string) => [
  { title: first, width: 'fit' as const },
  { title: ctx.t('results.compare.run', { run: 'A' }), width: 'wrap' as const },
  { title: ctx.t('results.compare.run', { run: 'B' }), width: 'wrap' as const },
];

export function factsTable(a: RunRecord, b: RunRecord, ctx: ReportContext): void {
  const { t } = ctx;
  const facts = (r: RunRecord): string[] => [
    r.labTitle,
    r.id,
    deviceName(r),
    dateText(r.createdAt),
    t(`results.compare.runStatus.${r.status}`),
    String(r.points.length),
    r.appVersion,
  ];
  const names = ['lab', 'runId', 'device', 'date', 'status', 'points', 'app'];
  const fa = facts(a);
  const fb = facts(b);
  const rows: TableRow[] = names.map((name, i) => ({
    cells: [name === 'runId' ? t('pdf.compare.runId') : t(`results.compare.facts.${name}`), fa[i] ?? '', fb[i] ?? ''],
    shaded: name !== 'date' && name !== 'runId' && fa[i] !== fb[i],
  }));
  drawTable(ctx.layout, { columns: runColumns(ctx, t('results.compare.facts.caption')), rows });
}

export function paramsTable(a: LabRun, b: LabRun, ctx: ReportContext): void {
  const { t } = ctx;
  const known = [...a.lab.parameters, ...b.lab.parameters.filter((p) => !a.lab.parameters.some((q) => q.name === p.name))];
  const rows: TableRow[] = paramRows(a.record, b.record, known).map((row) => ({
    cells: [{ text: row.label, note: row.differs ? t('results.compare.params.differs') : undefined }, row.a, row.b],
    shaded: row.differs,
  }));
  ctx.layout.paragraph(t('results.compare.params.caption'), { size: SIZES.small, colour: COLOURS.muted });
  drawTable(ctx.layout, { columns: runColumns(ctx, t('results.compare.params.name')), rows });
}

export function compareChartSection(a: LabRun, b: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const chart = compareChart(a.record, b.record, a.lab, { theme: LIGHT_CHART_THEME, t });
  const size = reportChartSize(chart.minHeight);
  const height = chartHeight(layout, size);
  layout.ensureSpace(height + 6);
  layout.image(chartPng(chart.config, size), layout.width, height);
  if (chart.notes.length > 0) layout.bullets(chart.notes.map((text) => ({ text, colour: COLOURS.muted })), SIZES.small);
}

// The points named in the lab's words in the report's language (`lab`, localized), as the app's table names them.
export function ratiosTable(a: RunRecord, b: RunRecord, ctx: ReportContext, lab: LabDescriptor): void {
  const { t } = ctx;
  ctx.layout.paragraph(t('results.compare.ratios.caption'), { size: SIZES.small, colour: COLOURS.muted });
  const c = (key: string, width: 'fit' | 'wrap', align: 'left' | 'right') => ({ title: t(`results.compare.ratios.${key}`), width, align });
  drawTable(ctx.layout, {
    columns: [c('point', 'wrap', 'left'), c('medianA', 'fit', 'right'), c('medianB', 'fit', 'right'), c('ratio', 'fit', 'right'), c('faster', 'fit', 'left')],
    rows: compareRows(a, b, t, lab).map((row) => ({ cells: [row.label, row.medianA, row.medianB, row.ratioText, row.fasterText], shaded: row.presence !== 'both' || !row.comparable })),
  });
}
