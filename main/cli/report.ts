// `gpu-lab report --all-labs --pdf FILE`: the latest finished run of every lab on one device, in one PDF with a table of
// contents. And what the other commands share to write a report: the --pdf, --author and --course options, the
// stored runs a report is made of, and the file written atomically (no half PDF, whatever goes wrong).
import { GpuLabError } from '../common/errors.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { LAB_IDS } from '../common/lab-descriptor.ts';
import { appVersion, defaultDataDir } from '../runner/lab-host.ts';
import { RunStore } from '../runner/run-store.ts';
import { writeFileAtomic } from '../report/report-file.ts';
import { checkAuthorship } from '../report/report-input.ts';
import type { ReportAuthorship } from '../report/report-context.ts';
import { reportableRun } from '../report/reports-service.ts';
import type { ReportSources } from '../report/reports-service.ts';
import type { ReportPdf } from '../report/report-writer.ts';
import type { CliCommand, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import type { ParsedArgs } from './cli-options.ts';
import { option, parseArgs } from './cli-options.ts';

export const REPORT_OPTIONS = ['pdf', 'author', 'course'] as const;

export const REPORT_USAGE_LINES = `  --pdf      write the PDF report to FILE (a temporary file in the same folder, then renamed)
  --author   the author named on the report's title page (at most 200 characters, one line)
  --course   the course named on the report's title page (likewise)`;

const USAGE = `Usage: gpu-lab report --all-labs --pdf FILE [--device cpu|cuda:N] [--author NAME] [--course NAME] [--data-dir DIR]

One PDF of every lab: the latest finished run of each on one device, with a table of contents and page numbers.
A lab without a finished run on that device is listed as not run.
  --device   the device whose runs to report (default: the device of the newest finished run)
${REPORT_USAGE_LINES}`;

export interface ReportArgs extends ReportAuthorship {
  pdf: string | undefined;
}

// The options, the author and course checked at once: a refused name is a usage error (exit 2) before any work.
export function reportArgs(args: ParsedArgs): ReportArgs {
  const pdf = option(args, 'pdf');
  const author = option(args, 'author');
  const course = option(args, 'course');
  if (pdf === undefined && (author !== undefined || course !== undefined)) throw new UsageError('--author and --course go with --pdf FILE');
  try {
    return { pdf, ...checkAuthorship({ author, course }) };
  } catch (err) {
    if (err instanceof GpuLabError) throw new UsageError(`${err.code}: ${err.message}`);
    throw err;
  }
}

export function storeSources(store: RunStore): ReportSources {
  return { getRun: (id) => store.get(id), runsDir: store.dir, writerVersion: appVersion() };
}

export async function savePdf(pdf: ReportPdf, path: string, io: CliIo): Promise<void> {
  const written = await writeFileAtomic(path, pdf.bytes);
  io.err(`wrote ${written} (${pdf.pages} pages, ${Math.ceil(pdf.bytes.length / 1024)} KiB)\n`);
}

// A report of one stored run, or of two compared.
export async function reportRuns(records: readonly RunRecord[], args: ReportArgs & { pdf: string }, io: CliIo): Promise<void> {
  const { writeComparisonReport, writeRunReport } = await import('../report/report-writer.ts');
  const [a, b] = records;
  if (!a) throw new UsageError('a report needs a run id');
  const options = { author: args.author, course: args.course, writerVersion: appVersion() };
  await savePdf(b ? await writeComparisonReport(a, b, options) : await writeRunReport(a, options), args.pdf, io);
}

const FINISHED = new Set<RunSummary['status']>(['completed', 'cancelled', 'failed']);

// The newest finished run of each lab on `device`, a completed one before one that was cancelled or failed.
export function latestRunsOn(summaries: readonly RunSummary[], device: string): RunSummary[] {
  return LAB_IDS.flatMap((lab) => {
    const runs = summaries.filter((s) => s.lab === lab && s.device === device && FINISHED.has(s.status)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const chosen = runs.find((s) => s.status === 'completed') ?? runs[0];
    return chosen ? [chosen] : [];
  });
}

export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'Write one PDF report of every lab on one device',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, ['device', 'data-dir', ...REPORT_OPTIONS], ['all-labs']);
    if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0] ?? ''}" (for one run: gpu-lab runs report <run-id> --pdf FILE)`);
    if (!args.flags.has('all-labs')) throw new UsageError('report needs --all-labs (for one run: gpu-lab runs report <run-id> --pdf FILE)');
    const report = reportArgs(args);
    if (report.pdf === undefined) throw new UsageError('report needs --pdf FILE');
    const device = option(args, 'device');
    if (device !== undefined && !/^(cpu|cuda:\d{1,2})$/.test(device)) throw new UsageError(`--device must be cpu or cuda:N, not "${device}"`);
    const store = new RunStore(option(args, 'data-dir') ?? defaultDataDir(), { warn: (m) => io.err(`gpu-lab: warning: ${m}\n`) });
    const summaries = await store.list();
    const on = device ?? summaries.find((s) => FINISHED.has(s.status))?.device;
    const chosen = on === undefined ? [] : latestRunsOn(summaries, on);
    if (on === undefined || chosen.length === 0) {
      throw new GpuLabError('NOT_FOUND', `No finished run${on === undefined ? '' : ` on ${on}`} in ${store.dir}: run the labs first (npm run labs:all, or gpu-lab run <lab>)`, { device: on ?? null });
    }
    const sources = storeSources(store);
    const records = await Promise.all(chosen.map((s) => reportableRun(sources, s.id)));
    const { writeLabsReport } = await import('../report/report-writer.ts');
    const pdf = await writeLabsReport(records, on, { author: report.author, course: report.course, writerVersion: appVersion() });
    for (const s of chosen) io.out(`${s.lab.padEnd(22)} ${s.id}\n`);
    await savePdf(pdf, report.pdf, io);
    return 0;
  },
};
