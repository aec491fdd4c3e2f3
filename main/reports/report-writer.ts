// The PDF report of GPU Lab: one run, two runs compared, or every lab on one device, as bytes; kernel playground
// runs after a run or on their own. Everything it is given is checked first (the author and course fields, each
// record's schema, that each run has ended, each kernel run's shape), so that a refusal comes before any work and
// never leaves half a file; writing the bytes to a file is main/runs/atomic-write.ts's job.
//
// pdfkit, not pdfmake: the report is laid out by code that measures as it goes. Tables size each figure's column to
// its widest figure and never wrap it (a reader, and pdftotext, must find "14.57 ms" whole), code listings carry their
// own line numbers, charts are placed at a known size, and the table of contents is filled in once the chapters have
// found their pages. pdfkit gives exactly that (measure a string, draw it at x, y, keep the pages to revisit them),
// embeds and subsets TrueType fonts (DejaVu, for accents and ≈ × µ ² ³ ✓; its built-in fonts garble them), installs
// from the npm registry with no download, and is maintained. pdfmake's declarative document hides those measurements
// and would have to be told the page numbers it lays out.
import type { ClassOverview } from '../common/contract/classroom.ts';
import { safeFileName } from '../common/pure/file-name.ts';
import type { ReferenceResult } from '../common/contract/labs.ts';
import type { DevicesComparison } from '../common/contract/reports.ts';
import type { Locale } from '../common/pure/locale.ts';
import { REFERENCE_TABLE } from '../common/reference-table.ts';
import { defaultSourceRoots } from '../sources/kernel-sources.ts';
import { labDescriptors } from '../labs/index.ts';
import { classDocument } from './class-document.ts';
import { comparisonDocument, labsDocument, runDocument } from './documents.ts';
import { devicesDocument } from './machines-sections.ts';
import { ReportLayout } from './layout.ts';
import { kernelRunChapters, kernelRunsDocument, kernelRunsSubject, kernelRunsTitle, reportedKernelRuns } from './kernel-document.ts';
import type { ReportedKernelRun } from './kernel-sections.ts';
import type { LabRun, ReportContext, ReportSettings } from './report-context.ts';
import { reportTranslate } from './report-context.ts';
import { checkAuthorship, checkKernelRun, checkLocale, checkRecord, checkReportContents, localizeRun } from './report-input.ts';
import { inReportLocale } from './report-locale.ts';
import { SPREAD_RUNS } from './break-even-spread.ts';

export interface ReportOptions {
  author?: unknown;
  course?: unknown;
  date?: Date;
  writerVersion?: string;
  sourceRoots?: string[];
  // The language of the report: its words, the lab's texts and findings, and its numbers (decimal comma in
  // Spanish). English where none is given.
  locale?: Locale;
  // Other machines' results to show beside a run (machines-sections.ts); the table GPU Lab ships where none are given.
  references?: readonly ReferenceResult[];
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
    references: options.references ?? REFERENCE_TABLE.map((reference) => ({ origin: 'shipped' as const, reference })),
  };
}

function header(settings: ReportSettings): string {
  const t = reportTranslate(settings.locale);
  if (settings.author && settings.course) return t('pdf.header.both', { author: settings.author, course: settings.course });
  if (settings.author || settings.course) return t('pdf.header.one', { name: settings.author || settings.course });
  return t('pdf.header.none');
}

async function write(settings: ReportSettings, meta: Pick<DocumentPlan, 'title' | 'subject' | 'keyword'>, draw: (ctx: ReportContext) => Promise<void>): Promise<{ bytes: Uint8Array; pages: number }> {
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
  return writeReport([input], [], options);
}

export async function writeComparisonReport(inputA: unknown, inputB: unknown, options: ReportOptions = {}): Promise<ReportPdf> {
  return writeReport([inputA, inputB], [], options);
}

interface DocumentPlan {
  title: string;
  subject: string;
  keyword: string;
  filename: string;
  draw: (ctx: ReportContext) => Promise<void>;
}

function runPlan(run: LabRun, settings: ReportSettings): DocumentPlan {
  const t = reportTranslate(settings.locale);
  const { record } = run;
  const title = t('pdf.title.run', { lab: record.labTitle });
  const device = record.environment.devices?.devices.find((d) => d.id === record.device)?.name ?? record.device;
  const subject = t('pdf.subject.run', { lab: record.labTitle, run: record.id, device });
  return { title, subject, keyword: record.lab, filename: record.id, draw: (ctx) => runDocument(run, title, ctx) };
}

function comparisonPlan(a: LabRun, b: LabRun, settings: ReportSettings): DocumentPlan {
  const t = reportTranslate(settings.locale);
  const same = a.record.lab === b.record.lab;
  const title = same ? t('pdf.title.comparison', { lab: a.record.labTitle }) : t('pdf.title.comparisonLabs', { first: a.record.labTitle, second: b.record.labTitle });
  const subject = t('pdf.subject.comparison', { lab: a.record.labTitle, a: a.record.id, b: b.record.id });
  return { title, subject, keyword: a.record.lab, filename: `${a.record.id}-vs-${b.record.id}`, draw: (ctx) => comparisonDocument(a, b, title, ctx) };
}

function kernelRunsPlan(runs: readonly ReportedKernelRun[], settings: ReportSettings): DocumentPlan {
  const t = reportTranslate(settings.locale);
  const title = kernelRunsTitle(runs, t);
  const [only] = runs;
  const filename = runs.length === 1 && only ? only.run.id : `gpu-lab-kernel-runs-${settings.date.toISOString().slice(0, 10)}`;
  return { title, subject: kernelRunsSubject(runs, t), keyword: 'kernel playground', filename, draw: async (ctx) => kernelRunsDocument(runs, title, ctx) };
}

// One run, or two compared, then kernel playground runs, a chapter each; or kernel runs alone. Every input is
// checked before a page is laid out.
export async function writeReport(runInputs: readonly unknown[], kernelInputs: readonly unknown[], options: ReportOptions = {}): Promise<ReportPdf> {
  checkReportContents(runInputs, kernelInputs);
  const checked = runInputs.map(checkRecord);
  const kernelRuns = kernelInputs.map(checkKernelRun);
  const settings = settingsOf(options, checked[0]?.record.appVersion ?? 'unknown');
  return inReportLocale(settings.locale, async () => {
    const [a, b] = checked.map((run) => localizeRun(run, settings.locale));
    const reported = await reportedKernelRuns(kernelRuns, settings.locale, settings.sourceRoots);
    const plan = a ? (b ? comparisonPlan(a, b, settings) : runPlan(a, settings)) : kernelRunsPlan(reported, settings);
    const after = a && reported.length > 0;
    const pdf = await write(settings, plan, async (ctx) => {
      await plan.draw(ctx);
      if (after) kernelRunChapters(reported, ctx);
    });
    return { ...pdf, title: plan.title, filename: `${plan.filename}${after ? '-kernel-runs' : ''}.pdf` };
  });
}

// A lab's chapter from the runs given for it: the newest, with the earlier ones made with the same parameters on the
// same device as its repeats (up to three runs in all), whose break-evens the chapter gives the spread of.
function chapterOf(runs: readonly LabRun[], device: string): LabRun | null {
  const [newest, ...older] = [...runs].sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt));
  if (!newest) return null;
  const same = (r: LabRun): boolean => r.record.device === device && JSON.stringify(r.record.params) === JSON.stringify(newest.record.params);
  const repeats = older.filter(same).slice(0, SPREAD_RUNS - 1).map((r) => r.record);
  return repeats.length > 0 ? { ...newest, repeats } : newest;
}

// Every lab in the app's order: the run given for it (the newest, where several are), or a line saying it was not run
// on this device.
export async function writeLabsReport(inputs: readonly unknown[], device: string, options: ReportOptions = {}): Promise<ReportPdf> {
  const checked = inputs.map(checkRecord);
  const settings = settingsOf(options, checked[0]?.record.appVersion ?? 'unknown');
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const localized = checked.map((run) => localizeRun(run, settings.locale));
    const runs: (LabRun | { missing: string })[] = labDescriptors(settings.locale).map((lab) => chapterOf(localized.filter((r) => r.record.lab === lab.id), device) ?? { missing: lab.title });
    const first = localized[0]?.record;
    const deviceLabel = first?.environment.devices?.devices.find((d) => d.id === device)?.name ?? device;
    const title = t('pdf.title.labs', { device: deviceLabel });
    const subject = t('pdf.subject.labs', { device: deviceLabel });
    const pdf = await write(settings, { title, subject, keyword: 'labs' }, (ctx) => labsDocument(runs, title, device, ctx));
    const day = settings.date.toISOString().slice(0, 10);
    return { ...pdf, title, filename: `gpu-lab-labs-${device.replace(/[^A-Za-z0-9]+/g, '-')}-${day}.pdf` };
  });
}

// The class's report: each lab's summary of the class, then each student's runs (class-document.ts). `records`: the
// runs the overview's rows show, each checked as any report's run is.
export async function writeClassReport(overview: ClassOverview, records: readonly unknown[], options: ReportOptions = {}): Promise<ReportPdf> {
  const checked = records.map(checkRecord);
  const settings = settingsOf({ ...options, course: options.course ?? overview.className }, checked[0]?.record.appVersion ?? 'unknown');
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const runs = new Map(checked.map((run) => [run.record.id, localizeRun(run, settings.locale)]));
    const labTitles = new Map(labDescriptors(settings.locale).map((l) => [l.id, l.title]));
    const title = t('pdf.class.title', { className: overview.className });
    const subject = t('pdf.class.subject', { className: overview.className });
    const pdf = await write(settings, { title, subject, keyword: t('pdf.class.keyword') }, (ctx) => classDocument({ overview, runs, labTitles }, title, ctx));
    return { ...pdf, title, filename: safeFileName(`GPU Lab – ${overview.className} – ${settings.date.toISOString().slice(0, 10)}`, 'pdf') };
  });
}

// One lab across every device that has a run of it, or several labs a chapter each (machines-sections.ts).
export async function writeDevicesReport(comparisons: readonly DevicesComparison[], options: ReportOptions = {}): Promise<ReportPdf> {
  const settings = settingsOf(options, 'unknown');
  return inReportLocale(settings.locale, async () => {
    const t = reportTranslate(settings.locale);
    const labs = labDescriptors(settings.locale);
    const [only] = comparisons;
    const onlyLab = comparisons.length === 1 && only ? labs.find((l) => l.id === only.lab) : undefined;
    const title = onlyLab ? t('machines.devices.report.titleLab', { lab: onlyLab.title }) : t('machines.devices.report.title');
    const pdf = await write(settings, { title, subject: t('machines.devices.report.subject'), keyword: 'devices' }, async (ctx) => devicesDocument(comparisons, labs, title, ctx));
    const day = settings.date.toISOString().slice(0, 10);
    return { ...pdf, title, filename: `gpu-lab-devices-${onlyLab ? onlyLab.id : 'labs'}-${day}.pdf` };
  });
}
