// `gpu-lab report --all-labs --pdf FILE`: the latest finished run of every lab on one device, in one PDF with a table of
// contents; `gpu-lab report --kernel-run ID … --pdf FILE`: kernel playground runs alone. And what the other commands
// share to write a report: the --pdf, --author, --course and --kernel-run options, the stored runs a report is made
// of, and the file written atomically (no half PDF, whatever goes wrong).
import { join } from 'node:path';

import type { LabsReportRequest, ReportRequest, ReportsService } from '../common/contract/reports.ts';
import { GpuLabError } from '../common/errors.ts';
import { DEVICE_ID } from '../common/measurement.ts';
import { LAB_IDS } from '../common/lab-descriptor.ts';
import type { LabId } from '../common/lab-descriptor.ts';
import { referenceResults } from '../runs/reference-store.ts';
import type { RunRecord } from '../common/run-record.ts';
import { KernelStore } from '../playground/kernel-store.ts';
import { defaultSourceRoots } from '../sources/kernel-sources.ts';
import { appVersion, defaultDataDir } from '../app/lab-host.ts';
import { RunStore } from '../runs/run-store.ts';
import { writeFileAtomic } from '../runs/atomic-write.ts';
import { checkAuthorship } from '../reports/report-input.ts';
import type { ReportAuthorship } from '../reports/report-context.ts';
import { createReportsService, devicesComparison, isFinished } from '../reports/reports-service.ts';
import type { ReportSources } from '../reports/reports-service.ts';
import type { ReportPdf } from '../reports/report-writer.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError, stdoutOf } from './command.ts';
import type { ParsedArgs } from './cli-options.ts';
import { dataDirOption, option, parseArgs, pathOption } from './cli-options.ts';
import type { CliText } from './cli-text.ts';

// `kernel-run` is repeatable: each one adds a kernel playground run to the report, after the runs.
export const REPORT_OPTIONS = ['pdf', 'author', 'course', 'kernel-run'] as const;

// The lines of help the commands that write a report share.
export function reportUsageLines(t: CliText): string {
  return `${t('report.options')}\n${t('report.kernelRunOption')}`;
}

export interface ReportArgs extends ReportAuthorship {
  pdf: string | undefined;
  kernelRunIds: string[];
  // Where the kernel runs are read; the default data folder where --data-dir is not given.
  dataDir: string | undefined;
}

// The options, the author and course checked at once: a refused name is a usage error (exit 2) before any work.
export function reportArgs(args: ParsedArgs): ReportArgs {
  const pdf = pathOption(args, 'pdf');
  const author = option(args, 'author');
  const course = option(args, 'course');
  const kernelRunIds = args.options.get('kernel-run') ?? [];
  if (pdf === undefined && (author !== undefined || course !== undefined)) throw new UsageError('usage.authorWithPdf');
  if (pdf === undefined && kernelRunIds.length) throw new UsageError('usage.pdfNeeded', { what: '--kernel-run' });
  try {
    return { pdf, kernelRunIds, dataDir: dataDirOption(args, true), ...checkAuthorship({ author, course }) };
  } catch (err) {
    if (err instanceof GpuLabError) throw new UsageError('error.coded', { code: err.code, detail: err.message });
    throw err;
  }
}

export function storeSources(store: RunStore): ReportSources {
  return { getRun: (id) => store.get(id), runsDir: store.dir, writerVersion: appVersion() };
}

export async function savePdf(pdf: Pick<ReportPdf, 'bytes' | 'pages'>, path: string, io: CliIo, t: CliText): Promise<void> {
  const written = await writeFileAtomic(path, pdf.bytes, { what: 'the report', stdout: stdoutOf(io) });
  io.err(`${t('report.wrote', { path: written, count: pdf.pages, kib: Math.ceil(pdf.bytes.length / 1024) })}\n`);
}

// What the report writers are told: who wrote it for which course, and the language the CLI speaks.
function reportOptions(args: ReportAuthorship, cx: CliContext): { author: string; course: string; writerVersion: string; locale: CliContext['locale'] } {
  return { author: args.author, course: args.course, writerVersion: appVersion(), locale: cx.locale };
}

// A report as the app asks for one, through the reports service: runs, then kernel runs; or every lab on a device.
export async function reportThroughService(
  reports: ReportsService,
  what: Pick<ReportRequest, 'runIds' | 'kernelRunIds'> | Pick<LabsReportRequest, 'device'>,
  args: ReportArgs & { pdf: string },
  io: CliIo,
  cx: CliContext,
): Promise<void> {
  const asked = { author: args.author, course: args.course, locale: cx.locale };
  const file = 'device' in what ? await reports.writeLabsReport({ ...what, ...asked }) : await reports.writeReport({ ...what, ...asked });
  await savePdf({ bytes: Buffer.from(file.base64, 'base64'), pages: file.pages }, args.pdf, io, cx.t);
}

// The reports service over the runs in hand and the kernel runs stored in the data folder.
function kernelReports(records: readonly RunRecord[], dataDir: string, io: CliIo, t: CliText): ReportsService {
  const kernels = new KernelStore(dataDir, { warn: (m) => io.err(`gpu-lab: ${t('error.warning', { detail: m })}\n`) });
  const runsDir = join(dataDir, 'runs');
  return createReportsService({
    getRun: async (id) => {
      const record = records.find((r) => r.id === id);
      if (!record) throw new GpuLabError('NOT_FOUND', `No run "${id}" in ${runsDir}`, { runId: id });
      return record;
    },
    getKernelRun: (id) => kernels.get(id),
    runsDir,
    writerVersion: appVersion(),
    sourceRoots: defaultSourceRoots(),
  });
}

// A report of one stored run, or of two compared; and of the kernel runs of --kernel-run after them.
export async function reportRuns(records: readonly RunRecord[], args: ReportArgs & { pdf: string }, io: CliIo, cx: CliContext): Promise<void> {
  if (args.kernelRunIds.length) {
    const reports = kernelReports(records, args.dataDir ?? defaultDataDir(), io, cx.t);
    await reportThroughService(reports, { runIds: records.map((r) => r.id), kernelRunIds: args.kernelRunIds }, args, io, cx);
    return;
  }
  const { writeComparisonReport, writeRunReport } = await import('../reports/report-writer.ts');
  const [a, b] = records;
  if (!a) throw new UsageError('usage.reportRun');
  // Other machines' results beside the run: the shipped table's and the data folder's references/.
  const warn = (m: string): void => io.err(`gpu-lab: ${cx.t('error.warning', { detail: m })}\n`);
  const references = (await Promise.all([...new Set(records.map((r) => r.lab))].map((lab) => referenceResults(lab, args.dataDir ?? defaultDataDir(), warn)))).flat();
  const options = { ...reportOptions(args, cx), references };
  await savePdf(b ? await writeComparisonReport(a, b, options) : await writeRunReport(a, options), args.pdf, io, cx.t);
}

const isLabId = (value: string): value is LabId => (LAB_IDS as readonly string[]).includes(value);

// `report --devices [--lab L]`: one lab (or every lab with a run) across every device that has a run of it; prints the
// run chosen for each device.
async function devicesReport(args: ParsedArgs, io: CliIo, cx: CliContext): Promise<number> {
  const { t } = cx;
  if (args.flags.has('all-labs')) throw new UsageError('usage.devicesWith', { option: '--all-labs' });
  for (const other of ['device', 'kernel-run'] as const) if (args.options.has(other)) throw new UsageError('usage.devicesWith', { option: `--${other}` });
  const report = reportArgs(args);
  if (report.pdf === undefined) throw new UsageError('usage.pdfNeeded', { what: 'report --devices' });
  const lab = option(args, 'lab');
  if (lab !== undefined && !isLabId(lab)) throw new UsageError('usage.unknownLab', { lab, labs: LAB_IDS.join(', ') });
  const warn = (m: string): void => io.err(`gpu-lab: ${t('error.warning', { detail: m })}\n`);
  const dataDir = report.dataDir ?? defaultDataDir();
  const store = new RunStore(dataDir, { warn, create: false });
  const sources = { ...storeSources(store), listRuns: () => store.list() };
  const compared = [];
  for (const id of lab !== undefined && isLabId(lab) ? [lab] : LAB_IDS) {
    const comparison = await devicesComparison(sources, id);
    if (comparison.columns.length > 0) compared.push(comparison);
  }
  if (compared.length === 0) throw new GpuLabError('NOT_FOUND', t('report.noFinishedRun', { dir: store.dir }), { lab: lab ?? null });
  const { writeDevicesReport } = await import('../reports/report-writer.ts');
  await savePdf(await writeDevicesReport(compared, reportOptions(report, cx)), report.pdf, io, t);
  for (const comparison of compared) {
    for (const c of comparison.columns) io.out(`${comparison.lab.padEnd(22)} ${c.runId}  ${[c.gpu ?? c.cpu ?? c.device, c.node].filter(Boolean).join(' · ')}\n`);
  }
  return 0;
}

export const reportCommand: CliCommand = {
  name: 'report',
  usage: (t) => t('commands.report.usage', { reportOptions: reportUsageLines(t) }),
  async run(argv, io, cx) {
    const { t } = cx;
    const args = parseArgs(argv, ['device', 'lab', 'data-dir', ...REPORT_OPTIONS], ['all-labs', 'devices']);
    if (args.positional.length > 0) throw new UsageError('usage.reportArgument', { value: args.positional[0] ?? '' });
    if (args.flags.has('devices')) return devicesReport(args, io, cx);
    if (option(args, 'lab') !== undefined) throw new UsageError('usage.labWithDevices');
    const allLabs = args.flags.has('all-labs');
    const kernelRunIds = args.options.get('kernel-run') ?? [];
    if (allLabs && kernelRunIds.length) throw new UsageError('usage.kernelRunWithAllLabs');
    if (!allLabs && !kernelRunIds.length) throw new UsageError('usage.allLabs');
    const report = reportArgs(args);
    if (report.pdf === undefined) throw new UsageError('usage.pdfNeeded', { what: 'report' });
    const device = option(args, 'device');
    if (device !== undefined && !allLabs) throw new UsageError('usage.deviceWithAllLabs');
    if (device !== undefined && !DEVICE_ID.safeParse(device).success) throw new UsageError('usage.device', { value: device });
    if (!allLabs) {
      const reports = kernelReports([], report.dataDir ?? defaultDataDir(), io, t);
      await reportThroughService(reports, { runIds: [], kernelRunIds }, { ...report, pdf: report.pdf }, io, cx);
      return 0;
    }
    const store = new RunStore(dataDirOption(args, true) ?? defaultDataDir(), { warn: (m) => io.err(`gpu-lab: ${t('error.warning', { detail: m })}\n`), create: false });
    const summaries = await store.list();
    // The device of the newest finished run, where none is named.
    const on = device ?? summaries.find(isFinished)?.device;
    // The app's own path: the reports service picks the runs and writes the PDF.
    const reports = createReportsService({ ...storeSources(store), listRuns: async () => summaries, sourceRoots: defaultSourceRoots() });
    const chosen = on === undefined ? null : await reports.labsReportContents(on);
    if (on === undefined || !chosen?.runs.length) {
      const why = on === undefined ? t('report.noFinishedRun', { dir: store.dir }) : t('report.noFinishedRunOn', { device: on, dir: store.dir });
      throw new GpuLabError('NOT_FOUND', why, { device: on ?? null });
    }
    await reportThroughService(reports, { device: on }, { ...report, pdf: report.pdf }, io, cx);
    for (const s of chosen.runs) io.out(`${s.lab.padEnd(22)} ${s.id}\n`);
    return 0;
  },
};
