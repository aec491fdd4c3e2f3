// The sections of one run: what the lab shows, its parameters, the results (the app's chart and the app's results
// table, every figure formatted as the app formats it), the findings, the course's deliverable and the kernel sources.
import { LIGHT_CHART_THEME } from '../common/pure/charts/palette.ts';
import { runChart } from '../common/pure/charts/run-chart.ts';
import { orderFindings } from '../common/pure/finding-order.ts';
import { formatBytes, formatCount, formatWhole, unitFor } from '../common/pure/format.ts';
import type { ParamValue } from '../common/lab-descriptor.ts';
import { localizeDecimal, type Locale } from '../common/pure/locale.ts';
import type { PointResult } from '../common/run-record.ts';
import { readKernelSource } from '../sources/kernel-sources.ts';
import { labDescriptors } from '../labs/index.ts';
import { findingText } from '../labs/lab-text.ts';
import { chartHeight, chartPng, reportChartSize } from './chart-image.ts';
import { drawSource } from './code-listing.ts';
import { labDeliverable } from './deliverables/index.ts';
import { breakEvenSpreadText } from './break-even-spread.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import type { TableRow } from './table.ts';
import { resultsTable } from './results-table.ts';
import { drawTable } from './table.ts';

export function aboutSection({ lab }: LabRun, ctx: ReportContext): void {
  for (const paragraph of lab.explanation) ctx.layout.paragraph(paragraph);
  ctx.layout.heading(3, ctx.t('pdf.sections.lookFor'));
  ctx.layout.bullets(lab.lookFor.map((text) => ({ text })));
}

// A parameter's value as the user gave it, its decimals in the report's language; a list of numbers with a decimal
// comma among them is separated by semicolons, as "0,5; 1,5" reads and "0,5, 1,5" does not.
// A size given as a power of ten is written as one ("10⁸ elements (100 M)", not "8 log10 elements"), and 0 CPU threads,
// a rule rather than a count, in words; whole numbers with the language's thousands separators.
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function valueText(value: ParamValue | undefined, p: { unit: string; unitId?: string; unitOne?: string }, locale: Locale, t: ReportContext['t']): string {
  const unit = unitFor(p, value, locale);
  if (value === undefined) return '—';
  const id = p.unitId ?? p.unit;
  if (typeof value === 'number' && id === 'log10 elements' && Number.isInteger(value) && value >= 0) {
    return t('pdf.parameters.powerOfTen', { power: [...String(value)].map((d) => SUPERSCRIPT[Number(d)] ?? d).join(''), count: formatCount(10 ** value) });
  }
  if (id === 'threads' && value === 0) return t('pdf.parameters.allThreads');
  const items = (Array.isArray(value) ? value : [value]).map((v) => (typeof v !== 'number' ? String(v) : Number.isInteger(v) ? formatWhole(v) : localizeDecimal(String(v), locale)));
  // A decimal comma among the items (Spanish) separates them with semicolons; a thousands comma (English) does not.
  const text = items.join(locale === 'es' && items.some((v) => /\d,\d/.test(v)) ? '; ' : ', ');
  if (typeof value === 'number' && unit === 'bytes') return `${text} ${unit} (${formatBytes(value)})`;
  return unit ? `${text} ${unit}` : text;
}

export function parametersSection({ record, lab }: LabRun, ctx: ReportContext): void {
  const { t } = ctx;
  const { locale } = ctx.settings;
  const rows: TableRow[] = lab.parameters.map((p) => {
    const value = record.params[p.name];
    // A parameter the lab gained after the run was recorded has no value there: "—", not a change.
    const changed = value !== undefined && JSON.stringify(value) !== JSON.stringify(p.default);
    return {
      cells: [
        { text: p.label, note: p.description },
        valueText(value, p, locale, t),
        changed ? { text: valueText(p.default, p, locale, t), note: t('pdf.parameters.changed') } : t('pdf.parameters.default'),
      ],
    };
  });
  drawTable(ctx.layout, {
    columns: [
      { title: t('pdf.parameters.columns.name'), width: 'wrap' },
      { title: t('pdf.parameters.columns.value'), width: 'fit' },
      { title: t('pdf.parameters.columns.default'), width: 'fit' },
    ],
    rows,
  });
}

// The run's chart, at the size it needs (taller for rows of bars or panels), and the height it takes on the page.
export function resultsChart({ record, lab }: LabRun, ctx: ReportContext) {
  const chart = runChart(record, lab, { theme: LIGHT_CHART_THEME, t: ctx.t });
  const size = reportChartSize(chart.minHeight);
  return { chart, size, height: chartHeight(ctx.layout, size) };
}

export function resultsSection(run: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const { record, lab } = run;
  const { chart, size, height } = resultsChart(run, ctx);
  layout.heading(3, t('pdf.sections.chart'), height + 6);
  layout.image(chartPng(chart.config, size), layout.width, height);
  if (chart.notes.length > 0) layout.bullets(chart.notes.map((text) => ({ text, colour: COLOURS.muted })), SIZES.small);

  layout.heading(3, t('pdf.sections.table'));
  layout.paragraph(`${t('results.table.caption')} ${t('pdf.results.verifiedNote')}`, { size: SIZES.small, colour: COLOURS.muted });
  const table = resultsTable(record, lab, t);
  if (table.above) layout.paragraph(table.above, { size: SIZES.small });
  drawTable(layout, table.spec);
  for (const line of table.below) layout.paragraph(line, { size: SIZES.small, after: 2 });
  const count = (status: PointResult['status']): number => record.points.filter((p) => p.status === status).length;
  const part = (status: PointResult['status']): string => t(`pdf.results.count.${status}`, { count: count(status) });
  layout.paragraph(t('pdf.results.counts', { ok: part('ok'), waived: part('waived'), failed: part('failed'), cancelled: part('cancelled') }), { size: SIZES.small, colour: COLOURS.muted });
}

// The lab's headline first, in bold, as the app shows it; then the warnings and the rest (common/pure/finding-order.ts).
export function findingsSection({ record, lab }: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  if (record.findings.length === 0) {
    layout.paragraph(t('pdf.findings.none'));
    return;
  }
  // A run with findings about itself only (every series waived) has no headline: its findings are all bullets.
  const { headline, rest } = orderFindings(record.findings, lab.headline);
  if (headline) layout.paragraph(findingText(headline, ctx.settings.locale), { font: 'bold', colour: headline.tone === 'warning' ? COLOURS.warning : undefined });
  layout.bullets(
    rest.map((f) => {
      const text = findingText(f, ctx.settings.locale);
      return f.tone === 'warning' ? { text, mark: '!', colour: COLOURS.warning } : { text };
    }),
  );
  for (const warning of record.warnings) layout.paragraph(t('pdf.findings.warning', { warning }), { size: SIZES.small, colour: COLOURS.warning });
}

export function deliverableSection(run: LabRun, ctx: ReportContext): void {
  const { layout, t } = ctx;
  const deliverable = labDeliverable({ record: run.record, lab: run.lab, t });
  if (!deliverable) {
    layout.paragraph(t('pdf.deliverable.none'));
    return;
  }
  layout.paragraph(deliverable.source, { font: 'oblique', size: SIZES.small, colour: COLOURS.muted });
  for (const table of deliverable.tables) {
    layout.paragraph(table.caption, { font: 'bold', size: SIZES.small + 0.5, after: 3 });
    drawTable(layout, { columns: table.columns, rows: table.rows, size: SIZES.table + 0.6, fill: false });
    for (const note of table.notes) layout.paragraph(note, { size: SIZES.small - 0.3, colour: COLOURS.muted, after: 2 });
    layout.gap(4);
  }
  const spread = breakEvenSpreadText(run, ctx);
  if (spread) layout.paragraph(spread, { size: SIZES.small });
  layout.heading(3, t('pdf.sections.questions'));
  deliverable.answers.forEach((a, i) => {
    layout.paragraph(`${i + 1}. ${a.question}`, { font: 'bold', after: 2 });
    layout.paragraph(a.answer, { indent: 13 });
  });
}

export async function kernelsSection({ lab }: LabRun, ctx: ReportContext): Promise<void> {
  const { layout, t } = ctx;
  layout.paragraph(t('pdf.kernels.intro'), { size: SIZES.small, colour: COLOURS.muted });
  for (const kernel of lab.kernels) {
    layout.heading(3, kernel.file);
    layout.paragraph(t(`pdf.kernels.kind.${kernel.kind}`, { functions: kernel.functions.join(', ') }), { size: SIZES.small });
    if (kernel.fallback) layout.paragraph(t('pdf.kernels.fallback', { file: kernel.fallback }), { size: SIZES.small });
    if (kernel.kind === 'library') continue;
    try {
      const source = await readKernelSource(kernel.file, labDescriptors(), ctx.settings.sourceRoots);
      drawSource(layout, source.text);
    } catch (err) {
      layout.paragraph(t('pdf.kernels.missing', { message: err instanceof Error ? err.message : String(err) }), { size: SIZES.small, colour: COLOURS.warning });
    }
  }
}
