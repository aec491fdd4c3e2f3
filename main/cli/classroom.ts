// `gpu-lab classroom export [--data-dir DIR] [--pdf FILE] [--csv FILE]`: the class a data folder holds (the one
// `gpu-lab serve --classroom NAME` keeps there), written as its teacher's view shows it: the class's PDF in the CLI's
// language, the CSV of every run. Reads the folder, never writes to it: the class's server may be running; the files
// go through the one atomic-write helper (no half file, whatever goes wrong; `-` is standard output).
import { appVersion, defaultDataDir } from '../app/lab-host.ts';
import { ClassExports, classSources } from '../classroom/class-exports.ts';
import type { ClassReportWriter } from '../classroom/class-exports.ts';
import { ClassStore } from '../classroom/class-store.ts';
import { writeFileAtomic } from '../runs/atomic-write.ts';
import { RunStore } from '../runs/run-store.ts';
import type { CliCommand } from './command.ts';
import { UsageError, stdoutOf } from './command.ts';
import { dataDirOption, parseArgs, pathOption } from './cli-options.ts';

export const classroomCommand: CliCommand = {
  name: 'classroom',
  usage: (t) => t('classroom.help'),
  async run(argv, io, cx) {
    const { t } = cx;
    const args = parseArgs(argv, ['data-dir', 'pdf', 'csv'], []);
    const [action, extra] = args.positional;
    if (action === undefined) throw new UsageError('classroom.usage.actionNeeded');
    if (action !== 'export') throw new UsageError('classroom.usage.action', { value: action });
    if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
    const pdf = pathOption(args, 'pdf');
    const csv = pathOption(args, 'csv');
    if (pdf === undefined && csv === undefined) throw new UsageError('classroom.usage.fileNeeded');
    if (pdf === '-' && csv === '-') throw new UsageError('classroom.usage.bothStdout');
    const dataDir = dataDirOption(args, true) ?? defaultDataDir();
    const store = await ClassStore.read(dataDir);
    const runs = new RunStore(dataDir, { warn: (m) => io.err(`gpu-lab: ${t('error.warning', { detail: m })}\n`), create: false });
    // The PDF library and the canvas are loaded only where a PDF is asked for.
    const writer: ClassReportWriter = async (overview, records, options) => (await import('../reports/report-writer.ts')).writeClassReport(overview, records, options);
    const exports = new ClassExports(() => classSources(store, { listRuns: () => runs.list(), getRun: (id) => runs.get(id) }), writer);
    const stdout = stdoutOf(io);
    if (csv !== undefined) {
      const file = await exports.csv();
      const written = await writeFileAtomic(csv, file.text, { what: 'the class’s CSV', stdout });
      const count = file.text.split('\n').length - 2;
      io.err(`${t('classroom.wrote', { path: written, what: t('classroom.csvWhat', { count }) })}\n`);
    }
    if (pdf !== undefined) {
      const file = await exports.pdf({ locale: cx.locale, writerVersion: appVersion() });
      const written = await writeFileAtomic(pdf, file.bytes, { what: 'the class’s report', stdout });
      io.err(`${t('classroom.wrote', { path: written, what: t('classroom.pdfWhat', { count: file.pages }) })}\n`);
    }
    return 0;
  },
};
