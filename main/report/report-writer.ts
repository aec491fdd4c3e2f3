// The PDF report of GPU Lab: one run, two runs compared, or every lab on one device, as bytes. Everything it is
// given is checked first (the author and course fields, each record's schema, that each run has ended), so that a
// refusal comes before any work and never leaves half a file; writing the bytes to a file is report-file.ts's job.
//
// pdfkit, not pdfmake: the report is laid out by code that measures as it goes. Tables size each figure's column to
// its widest figure and never wrap it (a reader, and pdftotext, must find "14.57 ms" whole), code listings carry their
// own line numbers, charts are placed at a known size, and the table of contents is filled in once the chapters have
// found their pages. pdfkit gives exactly that (measure a string, draw it at x, y, keep the pages to revisit them),
// embeds and subsets TrueType fonts (DejaVu, for accents and ≈ × µ ² ³ ✓; its built-in fonts garble them), installs
// from the npm registry with no download, and is maintained. pdfmake's declarative document hides those measurements
// and would have to be told the page numbers it lays out.
import type { Locale } from '../common/locale.ts';
import { defaultSourceRoots } from '../runner/kernel-sources.ts';
import { labDescriptors } from '../labs/index.ts';
import { comparisonDocument, labsDocument, runDocument } from './documents.ts';
import { ReportLayout } from './layout.ts';
import type { LabRun, ReportContext, ReportSettings } from './report-context.ts';
import { reportTranslate } from './report-context.ts';
import { checkAuthorship, checkLocale, checkRecord, localizeRun } from './report-input.ts';
import { inReportLocale } from './report-locale.ts';

export interface ReportOptions {
  author?: unknown;
  course?: unknown;
  date?: Date;
  writerVersion?: string;
  sourceRoots?: string[];
  // The language of the report: its words, the lab's texts and findings, and its numbers (decimal comma in
  // Spanish). English where none is given.
  locale?: Locale;
}

export interface ReportPdf {
  bytes: Uint8Array;
  pages: number;
  filename: string;
  title: string;
}

function settingsOf(options: ReportOptions, fallbackVersion: string): ReportSettings {
  return {
    ...checkAuthorship(options),
    date: options.date ?? new Date(),
    writerVersion: options.writerVersion ?? fallbackVersion,
    sourceRoots: options.sourceRoots ?? defaultSourceRoots(),
    locale: checkLocale(options.locale),
  };
}

function header(settings: ReportSettings): string {
  const t = reportTranslate(settings.locale);
  if (settings.author && settings.course) return t('pdf.header.both', { author: settings.author, course: settings.course });
  if (settings.author || settings.course) return t('pdf.header.one', { name: settings.author || settings.course });
  return t('pdf.header.none');
}

async function write(settings: ReportSettings, meta: { title: string; subject: string; keyword: string }, draw: (ctx: ReportContext) => Promise<void>): Promise<{ bytes: Uint8Array; pages: number }> {
  const t = reportTranslate(settings.locale);
  const layout = new ReportLayout({
    lang: settings.locale,
    title: meta.title,
    author: settings.author,
    subject: meta.subject,
    keywords: t('pdf.keywords', { lab: meta.keyword }),
    creator: t('pdf.creator', { version: settings.writerVersion }),
    date: settings.date,
    footer: t('pdf.footer', { version: settings.writerVersion, title: meta.title }),
    header: header(settings),
    pageNumber: (page, pages) => t('pdf.page', { page, pages }),
  });
  await draw({ layout, t, settings });
  return layout.finish();
}

// Each report is written inside its language's context (report-locale.ts), so that every number it formats, its
// own and those of the app's chart and table functions, reads in that language.
export async function writeRunReport(input: unknown, options: ReportOptions = {}): Promise<ReportPdf> {
  const checked = checkRecord(input);
  const settings = settingsOf(options, checked.record.appVersion);
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const run = localizeRun(checked, settings.locale);
    const { record } = run;
    const title = t('pdf.title.run', { lab: record.labTitle });
    const device = record.environment.devices?.devices.find((d) => d.id === record.device)?.name ?? record.device;
    const subject = t('pdf.subject.run', { lab: record.labTitle, run: record.id, device });
    const pdf = await write(settings, { title, subject, keyword: record.lab }, (ctx) => runDocument(run, title, ctx));
    return { ...pdf, title, filename: `${record.id}.pdf` };
  });
}

export async function writeComparisonReport(inputA: unknown, inputB: unknown, options: ReportOptions = {}): Promise<ReportPdf> {
  const checkedA = checkRecord(inputA);
  const checkedB = checkRecord(inputB);
  const settings = settingsOf(options, checkedA.record.appVersion);
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const a = localizeRun(checkedA, settings.locale);
    const b = localizeRun(checkedB, settings.locale);
    const same = a.record.lab === b.record.lab;
    const title = same ? t('pdf.title.comparison', { lab: a.record.labTitle }) : t('pdf.title.comparisonLabs', { first: a.record.labTitle, second: b.record.labTitle });
    const subject = t('pdf.subject.comparison', { lab: a.record.labTitle, a: a.record.id, b: b.record.id });
    const pdf = await write(settings, { title, subject, keyword: a.record.lab }, (ctx) => comparisonDocument(a, b, title, ctx));
    return { ...pdf, title, filename: `${a.record.id}-vs-${b.record.id}.pdf` };
  });
}

// Every lab in the app's order: the run given for it, or a line saying it was not run on this device.
export async function writeLabsReport(inputs: readonly unknown[], device: string, options: ReportOptions = {}): Promise<ReportPdf> {
  const checked = inputs.map(checkRecord);
  const settings = settingsOf(options, checked[0]?.record.appVersion ?? 'unknown');
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const localized = checked.map((run) => localizeRun(run, settings.locale));
    const runs: (LabRun | { missing: string })[] = labDescriptors(settings.locale).map((lab) => localized.find((r) => r.record.lab === lab.id) ?? { missing: lab.title });
    const first = localized[0]?.record;
    const deviceLabel = first?.environment.devices?.devices.find((d) => d.id === device)?.name ?? device;
    const title = t('pdf.title.labs', { device: deviceLabel });
    const subject = t('pdf.subject.labs', { device: deviceLabel });
    const pdf = await write(settings, { title, subject, keyword: 'labs' }, (ctx) => labsDocument(runs, title, device, ctx));
    const day = settings.date.toISOString().slice(0, 10);
    return { ...pdf, title, filename: `gpu-lab-labs-${device.replace(/[^A-Za-z0-9]+/g, '-')}-${day}.pdf` };
  });
}
