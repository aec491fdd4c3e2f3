// `gpu-lab run <lab>`: runs one lab through the compute host, printing progress, a results table as the points
// arrive and the findings at the end, in the CLI's language; optionally writes the run record as JSON (as stored).

import { DEVICE_ID } from '../common/measurement.ts';
import type { Finding, RunRecord } from '../common/run-record.ts';
import { formatPercent } from '../common/pure/format.ts';
import type { Locale } from '../common/pure/locale.ts';
import type { ParameterDescriptor, ParamValues } from '../common/lab-descriptor.ts';
import { parseParamText } from '../common/params.ts';
import { findLab, labDescriptors, LABS } from '../labs/index.ts';
import { findingText, labMessage, pointText } from '../labs/lab-text.ts';
import { WAITING_MESSAGE_KEY, type Message } from '../common/pure/message.ts';
import type { Lab } from '../labs/lab.ts';
import { createLabHost } from '../app/lab-host.ts';
import type { CliCommand, CliContext } from './command.ts';
import { stdoutOf } from './command.ts';
import { progressLine } from './progress-line.ts';
import { UsageError } from './command.ts';
import { dataDirOption, option, parseArgs, pathOption } from './cli-options.ts';
import { numberForm, type NumberForm } from './decimal.ts';
import { parsePeers, usePython } from './python-option.ts';
import { hostLog } from './host-log.ts';
import { runTable, waivedNote } from './run-table.ts';
import { REPORT_OPTIONS, reportArgs, reportRuns, reportUsageLines } from './report.ts';
import type { CliText } from './cli-text.ts';
import { checkWritable, writeFileAtomic } from '../runs/atomic-write.ts';
import { errorText } from '../common/pure/i18n/error-text.ts';
import { translator } from '../common/pure/i18n/index.ts';

// Why a number typed for a parameter is not written as the parameter reads it: hexadecimal, octal or binary digits,
// underscores between digits, or an exponent or a fraction where an integer is expected; null where it is fine (or
// the parameter holds no numbers: its own check words that).
// The items of a list may be spaced after their commas ("100, 500"); a number alone is written without spaces.
export function numberFormProblem(kind: ParameterDescriptor['kind'], text: string): NumberForm | null {
  if (kind !== 'integer' && kind !== 'integer-list' && kind !== 'number') return null;
  for (const item of kind === 'integer-list' ? text.split(',').map((t) => t.trim()) : [text]) {
    const form = numberForm(item, kind !== 'number');
    if (form) return form;
  }
  return null;
}

// The parameters typed on the command line, each as its descriptor's type; their values are checked once, by the
// lab, when the run is started (a refusal there is a usage error too).
export function labParams(lab: Lab, assignments: string[]): ParamValues {
  const raw: ParamValues = {};
  for (const text of assignments) {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new UsageError('usage.paramSyntax', { value: text });
    const name = text.slice(0, eq);
    const descriptor = lab.descriptor.parameters.find((p) => p.name === name);
    if (!descriptor) {
      throw new UsageError('usage.unknownParam', { lab: lab.descriptor.id, name, names: lab.descriptor.parameters.map((p) => p.name).join(', ') });
    }
    // Given twice, one of the two would be dropped without a word: refused, like a repeated --device.
    if (Object.hasOwn(raw, name)) throw new UsageError('usage.paramTwice', { name });
    const value = text.slice(eq + 1);
    // Numbers are written in decimal: 0x10, 0o100, 1_000 or 1e3 for an integer would be read as something else than
    // what most readers see, so they are refused with the form that was typed.
    const form = numberFormProblem(descriptor.kind, value);
    if (form) throw new UsageError(`usage.paramNotDecimal.${form}`, { name, value });
    raw[name] = parseParamText(descriptor, value);
  }
  return raw;
}

// `current` names the point being measured, read in the CLI's language.
function progressText(fraction: number, eta: number | null, current: Message, cx: CliContext): string {
  const percent = formatPercent(fraction, cx.locale);
  const what = labMessage(current, cx.locale);
  return eta === null ? cx.t('run.progress', { percent, current: what }) : cx.t('run.progressEta', { percent, seconds: Math.ceil(eta), current: what });
}

// The signals that cancel a run from the command line (README.md, "The command line": exit 130).
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// Why a finished run is not a success, one line per error code, or nothing: the run's own error, then its failed
// points, wrong results (VERIFICATION_FAILED) first. The codes and the engine's messages stay as they are.
export function runFailures(record: RunRecord, t: CliText, locale: Locale): string[] {
  const lab = findLab(record.lab)?.descriptor;
  const lines: string[] = [];
  if (record.status === 'cancelled') lines.push(t('error.coded', { code: 'CANCELLED', detail: t('run.cancelled') }));
  else if (record.error) lines.push(t('error.coded', { code: record.error.code, detail: errorText(record.error, translator(locale), locale) }));
  else if (record.status !== 'completed' && record.status !== 'waived') lines.push(t('run.ended', { status: t(`runStatus.${record.status}`) }));
  const failedByCode = new Map<string, string[]>();
  for (const p of record.points) {
    if (p.status !== 'failed') continue;
    const code = p.error?.code ?? 'NATIVE_ERROR';
    failedByCode.set(code, [...(failedByCode.get(code) ?? []), pointText(p, locale, lab)]);
  }
  const codes = [...failedByCode.keys()].sort((a, b) => Number(b === 'VERIFICATION_FAILED') - Number(a === 'VERIFICATION_FAILED'));
  for (const code of codes) {
    const labels = failedByCode.get(code) ?? [];
    const what = t(code === 'VERIFICATION_FAILED' ? 'run.wrongResults' : 'run.pointsFailed', { count: labels.length, total: record.points.length, labels: labels.join('; ') });
    lines.push(t('error.coded', { code, detail: what }));
  }
  return lines;
}

export const runCommand: CliCommand = {
  name: 'run',
  usage: (t) => t('commands.run.usage', { reportOptions: reportUsageLines(t) }),
  async run(argv, terminalIo, cx) {
    const { t, locale } = cx;
    const args = parseArgs(argv, ['device', 'param', 'json', 'data-dir', 'peers', 'python', ...REPORT_OPTIONS], ['quiet', 'verbose', 'no-wait']);
    const peers = parsePeers(option(args, 'peers'));
    usePython(pathOption(args, 'python'));
    // Every write goes through the progress line, which clears itself first.
    const progress = progressLine(terminalIo, args.flags.has('quiet'));
    const io = progress.io;
    const [labId, extra] = args.positional;
    const labs = LABS.map((l) => l.descriptor.id).join(', ');
    if (!labId) throw new UsageError('usage.whichLab', { labs });
    if (extra !== undefined) throw new UsageError('usage.unexpected', { value: extra });
    const lab = findLab(labId);
    if (!lab) throw new UsageError('usage.unknownLab', { lab: labId, labs });
    const device = option(args, 'device');
    if (device !== undefined && !DEVICE_ID.safeParse(device).success) throw new UsageError('usage.device', { value: device });
    const params = labParams(lab, args.options.get('param') ?? []);
    const jsonFile = pathOption(args, 'json');
    // Checked before the run: a refused author or an unwritable path must not cost a run's minutes.
    const report = reportArgs(args);
    if (report.pdf !== undefined) await checkWritable(report.pdf, { what: 'the report' });
    if (jsonFile !== undefined) await checkWritable(jsonFile, { what: 'the run record' });
    const title = labDescriptors(locale).find((d) => d.id === lab.descriptor.id)?.title ?? lab.descriptor.title;
    const table = runTable(t, locale, lab.descriptor);
    const host = createLabHost({ dataDir: dataDirOption(args), supervisor: { launcher: cx.launcher, log: (line: string) => hostLog(io, line, args.flags.has('verbose')) } });
    let headerShown = false;
    let notSaved: Finding | undefined;
    const explained = new Set<string>();
    const sub = host.runs.onDidChangeRun((e) => {
      switch (e.kind) {
        case 'started':
          io.out(`${title}\n${t('run.started', { run: e.runId, device: e.device, count: e.pointsTotal })}\n\n`);
          io.out(waivedNote(e.waived ?? [], t, locale));
          for (const w of e.waived ?? []) explained.add(w.reason);
          return;
        case 'progress':
          // Waiting for a device another run holds is said once, --quiet or not: a run that seems to hang must say why.
          if (e.progress.current.key === WAITING_MESSAGE_KEY) {
            io.err(`gpu-lab run: ${labMessage(e.progress.current, locale)}\n`);
            return;
          }
          progress.show(progressText(e.progress.fraction, e.progress.etaSeconds, e.progress.current, cx));
          return;
        case 'point':
          if (!headerShown) io.out(table.header());
          headerShown = true;
          io.out(table.row(e.point, explained));
          return;
        case 'finding':
          // Sent again each time the analysis of the points so far changes it: printed once, after the table.
          if (e.finding.id === 'run-not-saved') notSaved = e.finding;
          return;
        default:
          return;
      }
    });
    // Ctrl-C, a closed terminal or a polite kill: the run is cancelled, the points measured so far are kept and the
    // record says `cancelled` (exit 130). The compute host ignores these signals; its parent decides. A second one
    // does not wait for the sample in progress: the CLI goes at once, and the host, its channel closed, goes with it.
    let stopping = false;
    const onStop = (): void => {
      if (stopping) {
        io.err(`${t('run.stoppedNow')}\n`);
        process.exit(130);
      }
      stopping = true;
      io.err(`${t('run.cancelling')}\n`);
      for (const id of active) void host.runs.cancelRun(id);
    };
    const active: string[] = [];
    for (const signal of STOP_SIGNALS) process.on(signal, onStop);
    try {
      // The parameters are checked by the lab, and the device against this machine's, only now, by the runner: a
      // refusal (INVALID_PARAMS) is a usage error, exit 2, worded from the lab's descriptor in the CLI's language (main.ts).
      const { runId } = await host.runs.startRun({ lab: lab.descriptor.id, device, params, wait: !args.flags.has('no-wait'), ...(peers ? { peers } : {}) });
      active.push(runId);
      // Stopped while the run was being set up (the compute host starting, or measuring the CPU's bandwidth for the
      // first time this boot): there was nothing to cancel then.
      if (stopping) void host.runs.cancelRun(runId);
      await host.runs.whenIdle();
      const record = await host.runs.getRun(runId);
      // The record as stored: locale-neutral, whatever the language of the CLI.
      if (jsonFile !== undefined) await writeFileAtomic(jsonFile, `${JSON.stringify(record, null, 2)}\n`, { what: 'the run record', stdout: stdoutOf(io) });
      const findings = [...record.findings, ...(notSaved ? [notSaved] : [])];
      if (findings.length) io.out(`\n${t('run.findings')}\n${findings.map((f) => `${f.tone === 'warning' ? '  ! ' : '  • '}${findingText(f, locale)}\n`).join('')}`);
      // A record that could not be saved (a full disk, a folder turned read-only) is not "stored": a failed run, exit 1.
      // A run that ended before it held its devices never started, and is not stored either.
      if (notSaved) io.err(`\ngpu-lab run: ${t('run.notStored', { run: runId, dir: host.store.dir })}\n`);
      else if (host.runs.neverStarted(runId)) io.err(`gpu-lab run: ${t('run.neverStarted')}\n`);
      else io.out(`\n${t('run.stored', { status: t(`runStatus.${record.status}`), run: runId, dir: host.store.dir })}\n`);
      if (report.pdf !== undefined) await reportRuns([record], { ...report, pdf: report.pdf }, io, cx);
      if (notSaved) return 1;
      const failures = runFailures(record, t, locale);
      for (const line of failures) io.err(`gpu-lab run: ${line}\n`);
      if (record.status === 'cancelled') return 130;
      // --no-wait and the device was another run's: nothing was measured, try again later (EX_TEMPFAIL).
      if (record.error?.code === 'DEVICE_BUSY') return 75;
      if (failures.length) return 1;
      // A run that measured nothing (the transfer lab on the CPU: every point needs a GPU) is recorded as waived, not
      // a success: exit 3, and one line that says so; the findings above say why each point was waived.
      if (record.status === 'waived') {
        io.err(`gpu-lab run: ${t('run.nothingMeasured', { count: record.points.length })}\n`);
        return 3;
      }
      return 0;
    } finally {
      progress.clear();
      for (const signal of STOP_SIGNALS) process.removeListener(signal, onStop);
      sub.dispose();
      await host.dispose();
    }
  },
};
