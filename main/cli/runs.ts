// `gpu-lab runs list|show|export|delete|report`: the stored runs, and the PDF report of one or two of them. What it
// shows is in the CLI's language; what it exports (--json, export) is the record as stored, the same in any.
import type { ExportFormat } from '../common/contract/runs.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { findLab, labDescriptors } from '../labs/index.ts';
import { findingText } from '../labs/lab-text.ts';
import { writeFileAtomic } from '../runs/atomic-write.ts';
import { RunStore } from '../runs/run-store.ts';
import { defaultDataDir } from '../app/lab-host.ts';
import { exportRun } from '../runs/run-export.ts';
import { exportReference } from './reference-export.ts';
import { importAction } from './runs-import.ts';
import type { CliCommand, CliContext } from './command.ts';
import { UsageError, stdoutOf } from './command.ts';
import { dataDirOption, option, parseArgs, pathOption } from './cli-options.ts';
import { runTable, waivedNote } from './run-table.ts';
import { REPORT_OPTIONS, reportArgs, reportRuns, reportUsageLines, storeSources } from './report.ts';
import { reportableRun } from '../reports/reports-service.ts';
import { errorText } from '../common/pure/i18n/error-text.ts';
import { translator } from '../common/pure/i18n/index.ts';
import type { Message } from '../common/pure/message.ts';

const FORMATS: readonly ExportFormat[] = ['json', 'csv', 'csv-samples'];

// The stored runs as a table under a header, every column aligned: the run id (its date and lab in it), status,
// device, points, and the error code of a failed run.
function listLines(runs: readonly RunSummary[], { t }: CliContext): string {
  const rows = [
    [t('runs.columns.run'), t('runs.columns.status'), t('runs.columns.device'), t('runs.columns.points'), t('runs.columns.error')],
    ...runs.map((r) => [r.id, t(`runStatus.${r.status}`), r.device, String(r.points), r.errorCode ?? '']),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows.map((row) => `${row.map((cell, i) => (i === 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()}\n`).join('');
}

// The points waived for each reason, as `gpu-lab run` says them once above its table.
function waivedOf(record: RunRecord): { reason: string; points: number; why?: Message }[] {
  const byReason = new Map<string, { reason: string; points: number; why?: Message }>();
  for (const p of record.points) {
    if (p.status !== 'waived') continue;
    const entry = byReason.get(p.reason ?? '') ?? { reason: p.reason ?? '', points: 0, ...(p.why ? { why: p.why } : {}) };
    entry.points++;
    byReason.set(entry.reason, entry);
  }
  return [...byReason.values()];
}

function showRun(record: RunRecord, { t, locale }: CliContext): string {
  const title = labDescriptors(locale).find((d) => d.id === record.lab)?.title ?? record.labTitle;
  const table = runTable(t, locale, findLab(record.lab)?.descriptor);
  const waived = waivedOf(record);
  const explained = new Set(waived.map((w) => w.reason));
  return [
    `${title}\n${t('runs.heading', { run: record.id, status: t(`runStatus.${record.status}`), device: record.device, date: record.createdAt })}\n`,
    `${t('runs.parameters', { params: JSON.stringify(record.params) })}\n\n`,
    waivedNote(waived, t, locale),
    table.header(),
    ...record.points.map((p) => table.row(p, explained)),
    '\n',
    ...record.findings.map((f) => `${f.tone === 'warning' ? '  ! ' : '  • '}${findingText(f, locale)}\n`),
    record.error ? `\n${t('runs.failed', { code: record.error.code, detail: errorText(record.error, translator(locale), locale) })}\n` : '',
  ].join('');
}

export const runsCommand: CliCommand = {
  name: 'runs',
  usage: (t) => t('commands.runs.usage', { reportOptions: reportUsageLines(t) }),
  async run(argv, io, cx) {
    const { t } = cx;
    const args = parseArgs(argv, ['data-dir', 'format', 'out', ...REPORT_OPTIONS], ['json', 'reference']);
    const [action, id, second, extra] = args.positional;
    // The one action that takes paths, as many as given: it writes the data folder, so it may create the default one.
    if (action === 'import') return importAction(args.positional.slice(1), dataDirOption(args, true) ?? defaultDataDir(), args.flags.has('json'), io, cx);
    // Only a report takes a second run, the one compared with the first.
    const unexpected = action === 'report' ? extra : (second ?? extra);
    if (unexpected !== undefined) throw new UsageError('usage.unexpected', { value: unexpected });
    const report = reportArgs(args);
    if (action !== 'report' && report.pdf !== undefined) throw new UsageError('usage.pdfOnlyReport');
    const store = new RunStore(dataDirOption(args, true) ?? defaultDataDir(), { warn: (m) => io.err(`gpu-lab: ${t('error.warning', { detail: m })}\n`), create: false });
    const needId = (): string => {
      if (!id) throw new UsageError('usage.runId', { action: action ?? '' });
      return id;
    };
    switch (action) {
      case 'list': {
        const runs = await store.list();
        if (args.flags.has('json')) io.out(`${JSON.stringify(runs, null, 2)}\n`);
        else if (runs.length === 0) io.out(`${t('runs.none', { dir: store.dir })}\n`);
        else io.out(listLines(runs, cx));
        return 0;
      }
      case 'show': {
        const record = await store.get(needId());
        io.out(args.flags.has('json') ? `${JSON.stringify(record, null, 2)}\n` : showRun(record, cx));
        return 0;
      }
      case 'export': {
        const format = (option(args, 'format') ?? 'json') as ExportFormat;
        if (!FORMATS.includes(format)) throw new UsageError('usage.format', { formats: FORMATS.join(', '), value: format });
        const reference = args.flags.has('reference');
        if (reference && format !== 'json') throw new UsageError('usage.referenceJson', { format });
        const out = pathOption(args, 'out');
        const record = await store.get(needId());
        const exported = reference ? exportReference(record) : exportRun(record, format);
        if (out !== undefined) {
          const written = await writeFileAtomic(out, exported.text, { what: 'the export', stdout: stdoutOf(io) });
          if (written !== '-') io.err(`${t('runs.wrote', { path: written })}\n`);
        } else io.out(exported.text);
        return 0;
      }
      case 'delete':
        await store.delete(needId());
        io.out(`${t('runs.deleted', { run: id ?? '' })}\n`);
        return 0;
      case 'report': {
        const pdf = report.pdf;
        if (pdf === undefined) throw new UsageError('usage.pdfNeeded', { what: 'runs report' });
        const sources = storeSources(store);
        const records = await Promise.all([needId(), ...(second === undefined ? [] : [second])].map((runId) => reportableRun(sources, runId)));
        await reportRuns(records, { ...report, pdf }, io, cx);
        return 0;
      }
      default:
        throw new UsageError(action ? 'usage.runsActionNot' : 'usage.runsAction', { action: action ?? '' });
    }
  },
};
