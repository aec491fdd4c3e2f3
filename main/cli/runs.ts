// `gpu-lab runs list|show|export|delete|report`: the stored runs, and the PDF report of one or two of them.
import { writeFile } from 'node:fs/promises';

import type { ExportFormat } from '../common/contract.ts';
import { RunStore } from '../runner/run-store.ts';
import { defaultDataDir } from '../runner/lab-host.ts';
import { exportRun } from '../runner/run-export.ts';
import type { CliCommand } from './command.ts';
import { UsageError } from './command.ts';
import { option, parseArgs } from './cli-options.ts';
import { tableHeader, tableRow } from './run-table.ts';
import { REPORT_OPTIONS, REPORT_USAGE_LINES, reportArgs, reportRuns, storeSources } from './report.ts';
import { reportableRun } from '../report/reports-service.ts';

const USAGE = `Usage: gpu-lab runs list [--json] [--data-dir DIR]
       gpu-lab runs show <run-id> [--json] [--data-dir DIR]
       gpu-lab runs export <run-id> [--format json|csv|csv-samples] [--out FILE] [--data-dir DIR]
       gpu-lab runs delete <run-id> [--data-dir DIR]
       gpu-lab runs report <run-id> [<run-id-B>] --pdf FILE [--author NAME] [--course NAME] [--data-dir DIR]

runs report writes the PDF report of a run that has ended, or of two runs compared (A first).
${REPORT_USAGE_LINES}`;

const FORMATS: readonly ExportFormat[] = ['json', 'csv', 'csv-samples'];

export const runsCommand: CliCommand = {
  name: 'runs',
  summary: 'List, show, export, delete or report stored runs',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, ['data-dir', 'format', 'out', ...REPORT_OPTIONS], ['json']);
    const [action, id, second, extra] = args.positional;
    // Only a report takes a second run, the one compared with the first.
    const unexpected = action === 'report' ? extra : (second ?? extra);
    if (unexpected !== undefined) throw new UsageError(`unexpected argument "${unexpected}"`);
    const report = reportArgs(args);
    if (action !== 'report' && report.pdf !== undefined) throw new UsageError('--pdf goes with `gpu-lab runs report` (or `gpu-lab run … --pdf FILE`)');
    const store = new RunStore(option(args, 'data-dir') ?? defaultDataDir(), { warn: (m) => io.err(`gpu-lab: warning: ${m}\n`) });
    const needId = (): string => {
      if (!id) throw new UsageError(`runs ${action ?? ''} needs a run id (see \`gpu-lab runs list\`)`);
      return id;
    };
    switch (action) {
      case 'list': {
        const runs = await store.list();
        if (args.flags.has('json')) io.out(`${JSON.stringify(runs, null, 2)}\n`);
        else if (runs.length === 0) io.out(`no runs in ${store.dir}\n`);
        else for (const r of runs) io.out(`${r.id}  ${r.status.padEnd(9)} ${r.device.padEnd(7)} ${r.points} points${r.errorCode ? `  ${r.errorCode}` : ''}\n`);
        return 0;
      }
      case 'show': {
        const record = await store.get(needId());
        if (args.flags.has('json')) {
          io.out(`${JSON.stringify(record, null, 2)}\n`);
          return 0;
        }
        io.out(`${record.labTitle}\nrun ${record.id}: ${record.status} on ${record.device}, ${record.createdAt}\nparameters: ${JSON.stringify(record.params)}\n\n`);
        io.out(tableHeader());
        for (const p of record.points) io.out(tableRow(p));
        io.out('\n');
        for (const f of record.findings) io.out(`${f.tone === 'warning' ? '  ! ' : '  • '}${f.text}\n`);
        if (record.error) io.out(`\nfailed: ${record.error.code}: ${record.error.message}\n`);
        return 0;
      }
      case 'export': {
        const format = (option(args, 'format') ?? 'json') as ExportFormat;
        if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${format}"`);
        const exported = exportRun(await store.get(needId()), format);
        const out = option(args, 'out');
        if (out) {
          await writeFile(out, exported.text);
          io.err(`wrote ${out}\n`);
        } else io.out(exported.text);
        return 0;
      }
      case 'delete':
        await store.delete(needId());
        io.out(`deleted ${id}\n`);
        return 0;
      case 'report': {
        const pdf = report.pdf;
        if (pdf === undefined) throw new UsageError('runs report needs --pdf FILE');
        const sources = storeSources(store);
        const records = await Promise.all([needId(), ...(second === undefined ? [] : [second])].map((runId) => reportableRun(sources, runId)));
        await reportRuns(records, { ...report, pdf }, io);
        return 0;
      }
      default:
        throw new UsageError(`runs needs an action: list, show, export, delete or report${action ? ` (not "${action}")` : ''}`);
    }
  },
};
