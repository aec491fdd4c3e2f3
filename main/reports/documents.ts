// The three reports, section by section: one run; two runs compared; and every lab on one device, one chapter each,
// behind a table of contents whose page numbers are filled in once the chapters have found their pages.
import type { RunRecord } from '../common/run-record.ts';
import { environmentSection, telemetrySection } from './environment-section.ts';
import { COLOURS, SIZES } from './layout.ts';
import type { ReportLayout } from './layout.ts';
import { methodSection } from './method-section.ts';
import type { LabRun, ReportContext } from './report-context.ts';
import { dateText, deviceName } from './report-context.ts';
import { aboutSection, deliverableSection, findingsSection, kernelsSection, parametersSection, resultsChart, resultsSection } from './run-sections.ts';
import { compareChartSection, factsTable, paramsTable, ratiosTable } from './compare-sections.ts';
import { referencesSection } from './reference-section.ts';
import { errorText } from '../common/pure/i18n/error-text.ts';

export interface ContentsEntry {
  title: string;
  destination: string | null;
  page: number | null;
  sections: { title: string; destination: string; page: number }[];
}

type SectionKey = 'about' | 'environment' | 'run' | 'parameters' | 'method' | 'results' | 'findings' | 'deliverable' | 'kernels';
// The sections a multi-lab report's contents lists under each chapter.
const LISTED: readonly SectionKey[] = ['results', 'deliverable', 'kernels'];

function statusText(record: RunRecord, ctx: ReportContext): string {
  if (record.status === 'failed') return ctx.t('pdf.status.failed', { code: record.error?.code ?? '?', message: record.error ? errorText(record.error, ctx.t, ctx.settings.locale) : '' });
  return ctx.t(`pdf.status.${record.status === 'cancelled' || record.status === 'waived' ? record.status : 'completed'}`);
}

// The title block's author, course and date, as every report opens.
export function authorship(ctx: ReportContext): void {
  const { layout, t, settings } = ctx;
  layout.labelled(t('pdf.facts.author'), settings.author || t('pdf.facts.notGiven'));
  layout.labelled(t('pdf.facts.course'), settings.course || t('pdf.facts.notGiven'));
  layout.labelled(t('pdf.facts.written'), dateText(settings.date));
}

export function runFacts(record: RunRecord, ctx: ReportContext): void {
  const { layout, t, settings } = ctx;
  layout.labelled(t('pdf.facts.lab'), `${record.labTitle} (${record.lab})`);
  layout.labelled(t('pdf.facts.run'), record.id);
  layout.labelled(t('pdf.facts.device'), deviceName(record));
  layout.labelled(t('pdf.facts.started'), dateText(record.createdAt));
  layout.labelled(t('pdf.facts.finished'), dateText(record.finishedAt));
  layout.labelled(t('pdf.facts.status'), statusText(record, ctx));
  layout.labelled(t('pdf.facts.app'), t('pdf.facts.appValue', { writer: settings.writerVersion, measured: record.appVersion }));
}

// One run's sections; `environment` false in a multi-lab report, whose devices are described once up front.
async function runSections(run: LabRun, ctx: ReportContext, options: { environment: boolean; kernels: boolean }): Promise<ContentsEntry['sections']> {
  const { layout, t } = ctx;
  const listed: ContentsEntry['sections'] = [];
  const section = async (key: SectionKey, draw: () => void | Promise<void>, keep?: number): Promise<void> => {
    const title = t(`pdf.sections.${key}`);
    const at = layout.heading(2, title, keep);
    if (LISTED.includes(key)) listed.push({ title, ...at });
    await draw();
  };
  await section('about', () => aboutSection(run, ctx));
  if (options.environment) await section('environment', () => environmentSection(run.record, ctx));
  else {
    await section('run', () => {
      runFacts(run.record, ctx);
      layout.heading(3, t('pdf.environment.telemetry.title'));
      telemetrySection(run.record, ctx);
    });
  }
  await section('parameters', () => parametersSection(run, ctx));
  await section('method', () => methodSection(run, ctx));
  // The results open with the chart: the heading goes to the page the chart fits on.
  await section('results', () => resultsSection(run, ctx), resultsChart(run, ctx).height + 40);
  await section('findings', () => findingsSection(run, ctx));
  referencesSection(run, ctx);
  await section('deliverable', () => deliverableSection(run, ctx));
  if (options.kernels) await section('kernels', () => kernelsSection(run, ctx));
  return listed;
}

export async function runDocument(run: LabRun, title: string, ctx: ReportContext): Promise<void> {
  ctx.layout.heading(1, title);
  authorship(ctx);
  runFacts(run.record, ctx);
  await runSections(run, ctx, { environment: true, kernels: true });
}

export async function comparisonDocument(a: LabRun, b: LabRun, title: string, ctx: ReportContext): Promise<void> {
  const { layout, t, settings } = ctx;
  const sameLab = a.record.lab === b.record.lab;
  layout.heading(1, title);
  authorship(ctx);
  layout.labelled(t('pdf.facts.app'), t('pdf.facts.appValues', { writer: settings.writerVersion }));
  layout.paragraph(t(sameLab ? 'pdf.compare.intro' : 'pdf.compare.differentLabs', { first: a.record.labTitle, second: b.record.labTitle }), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  layout.heading(2, t('pdf.sections.comparison'));
  factsTable(a.record, b.record, ctx);
  paramsTable(a, b, ctx);
  if (sameLab) {
    layout.heading(2, t('pdf.sections.chart'));
    compareChartSection(a, b, ctx);
    layout.heading(2, t('pdf.sections.ratios'));
    ratiosTable(a.record, b.record, ctx, a.lab);
  }
  for (const [name, run] of [['A', a], ['B', b]] as const) {
    layout.newPage();
    layout.heading(1, t('pdf.sections.runPart', { run: name, lab: run.record.labTitle, device: deviceName(run.record) }));
    runFacts(run.record, ctx);
    await runSections(run, ctx, { environment: true, kernels: name === 'A' || !sameLab });
  }
}

function drawContents(layout: ReportLayout, entries: readonly ContentsEntry[], at: { page: number; y: number }, ctx: ReportContext): void {
  const { doc } = layout;
  const current = layout.pageIndex;
  doc.switchToPage(at.page);
  layout.y = at.y;
  const right = layout.left + layout.width;
  entries.forEach((entry, i) => {
    layout.use('bold', SIZES.body + 0.5, entry.page === null ? COLOURS.muted : COLOURS.text);
    const top = layout.y;
    const number = entry.page === null ? '' : String(entry.page + 1);
    const label = `${i + 1}  ${entry.title}`;
    // A long title (a Spanish lab's, with "not run on this device") wraps under itself; the page number stays on its
    // first line.
    doc.text(label, layout.left, top, { width: layout.width - 40, lineGap: SIZES.body * 0.1, ...(entry.destination ? { goTo: entry.destination } : {}) });
    const below = doc.y;
    doc.text(number, right - doc.widthOfString(number), top, { lineBreak: false });
    layout.y = below + SIZES.body * 0.3;
    if (entry.sections.length > 0) {
      layout.use('body', SIZES.small, COLOURS.muted);
      let x = layout.left + 18;
      for (const s of entry.sections) {
        const text = ctx.t('pdf.contents.section', { title: s.title, page: s.page + 1 });
        doc.text(text, x, layout.y, { lineBreak: false, goTo: s.destination });
        x += doc.widthOfString(text) + 14;
      }
      layout.y += SIZES.small * 1.7;
    }
  });
  doc.switchToPage(current);
}

export async function labsDocument(runs: readonly (LabRun | { missing: string })[], title: string, device: string, ctx: ReportContext): Promise<void> {
  const { layout, t } = ctx;
  layout.heading(1, title);
  authorship(ctx);
  const first = runs.find((r): r is LabRun => 'record' in r);
  layout.labelled(t('pdf.facts.device'), first ? deviceName(first.record, device) : device);
  layout.labelled(t('pdf.facts.app'), t('pdf.facts.appValues', { writer: ctx.settings.writerVersion }));
  layout.paragraph(t('pdf.labs.intro', { device }), { size: SIZES.small + 0.5, colour: COLOURS.muted });
  layout.heading(2, t('pdf.sections.contents'));
  const contentsAt = { page: layout.pageIndex, y: layout.y };
  const entries: ContentsEntry[] = [];
  if (first) {
    layout.newPage();
    const at = layout.heading(1, t('pdf.sections.environment'));
    layout.doc.outline.addItem(t('pdf.sections.environment'));
    layout.paragraph(t('pdf.labs.environmentNote'), { size: SIZES.small, colour: COLOURS.muted });
    environmentSection(first.record, ctx, { telemetry: false });
    entries.push({ title: t('pdf.sections.environment'), ...at, sections: [] });
  }
  for (const run of runs) {
    if (!('record' in run)) {
      entries.push({ title: t('pdf.labs.missing', { lab: run.missing }), destination: null, page: null, sections: [] });
      continue;
    }
    layout.newPage();
    const at = layout.heading(1, `${entries.length + 1}  ${run.record.labTitle}`);
    layout.doc.outline.addItem(run.record.labTitle);
    const sections = await runSections(run, ctx, { environment: false, kernels: true });
    entries.push({ title: run.record.labTitle, ...at, sections });
  }
  drawContents(layout, entries, contentsAt, ctx);
}
