// `gpu-lab run <lab>`: runs one lab through the compute host, printing progress, a results table as the points
// arrive and the findings at the end; optionally writes the run record as JSON.
import { writeFile } from 'node:fs/promises';

import { GpuLabError } from '../common/errors.ts';
import type { RunRecord } from '../common/run-record.ts';
import { formatPercent } from '../common/format.ts';
import { parseParamText, validateParams } from '../common/params.ts';
import { findLab, LABS } from '../labs/index.ts';
import type { Lab } from '../labs/lab.ts';
import { createLabHost } from '../runner/lab-host.ts';
import type { CliCommand, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { option, parseArgs } from './cli-options.ts';
import { hostLog } from './host-log.ts';
import { tableHeader, tableRow, waivedNote } from './run-table.ts';
import { REPORT_OPTIONS, REPORT_USAGE_LINES, reportArgs, reportRuns } from './report.ts';
import { checkWritable } from '../report/report-file.ts';

const USAGE = `Usage: gpu-lab run <lab> [--device cpu|cuda:N] [--param name=value …] [--json FILE] [--pdf FILE [--author NAME] [--course NAME]] [--data-dir DIR] [--quiet]

Runs a lab and stores the run in the data folder (default $XDG_DATA_HOME/gpu-lab or ~/.local/share/gpu-lab).
  --device   the GPU to compare with the CPU (default: the first CUDA device, else the CPU alone)
  --param    a lab parameter, e.g. --param n=2000 --param sizes=100,500,1000 (see \`gpu-lab labs\`)
  --json     also write the run record to FILE
${REPORT_USAGE_LINES}
  --quiet    no progress lines
  --verbose  every compute-host log line (by default only crashes, kills and warnings)
Exit codes: 0 completed with no failed point, 1 failed, cancelled or a point failed (the error code is printed:
VERIFICATION_FAILED for wrong results), 2 bad usage or parameters, a --device this machine does not have included.`;

export function labParams(lab: Lab, assignments: string[]): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const text of assignments) {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param expects name=value, got "${text}"`);
    const name = text.slice(0, eq);
    const descriptor = lab.descriptor.parameters.find((p) => p.name === name);
    if (!descriptor) {
      throw new UsageError(`lab "${lab.descriptor.id}" has no parameter "${name}"; its parameters are ${lab.descriptor.parameters.map((p) => p.name).join(', ')}`);
    }
    raw[name] = parseParamText(descriptor, text.slice(eq + 1));
  }
  try {
    validateParams(lab.descriptor.id, lab.descriptor.parameters, raw);
  } catch (err) {
    if (err instanceof GpuLabError && err.code === 'INVALID_PARAMS') throw new UsageError(`INVALID_PARAMS: ${err.message}`);
    throw err;
  }
  return raw;
}

function progressPrinter(io: CliIo, quiet: boolean): (fraction: number, eta: number | null, current: string) => void {
  let last = 0;
  return (fraction, eta, current) => {
    const now = Date.now();
    if (quiet || now - last < 1000) return;
    last = now;
    io.err(`  … ${formatPercent(fraction)}${eta === null ? '' : `, about ${Math.ceil(eta)} s left`}: ${current}\n`);
  };
}

// Why a finished run is not a success, one line per error code, or nothing: the run's own error, then its failed
// points, wrong results (VERIFICATION_FAILED) first.
export function runFailures(record: RunRecord): string[] {
  const lines: string[] = [];
  if (record.status === 'cancelled') lines.push('CANCELLED: the run was cancelled');
  else if (record.error) lines.push(`${record.error.code}: ${record.error.message}`);
  else if (record.status !== 'completed') lines.push(`the run ended ${record.status}`);
  const failedByCode = new Map<string, string[]>();
  for (const p of record.points) {
    if (p.status !== 'failed') continue;
    const code = p.error?.code ?? 'NATIVE_ERROR';
    failedByCode.set(code, [...(failedByCode.get(code) ?? []), p.label]);
  }
  const codes = [...failedByCode.keys()].sort((a, b) => Number(b === 'VERIFICATION_FAILED') - Number(a === 'VERIFICATION_FAILED'));
  for (const code of codes) {
    const labels = failedByCode.get(code) ?? [];
    const what = code === 'VERIFICATION_FAILED' ? 'gave wrong results' : 'failed';
    lines.push(`${code}: ${labels.length} of ${record.points.length} points ${what}: ${labels.join('; ')}`);
  }
  return lines;
}

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Run a lab on the CPU and a GPU, print and store the results',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, ['device', 'param', 'json', 'data-dir', ...REPORT_OPTIONS], ['quiet', 'verbose']);
    const [labId, extra] = args.positional;
    if (!labId) throw new UsageError(`which lab? one of ${LABS.map((l) => l.descriptor.id).join(', ')}`);
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    const lab = findLab(labId);
    if (!lab) throw new UsageError(`unknown lab "${labId}"; the labs are ${LABS.map((l) => l.descriptor.id).join(', ')}`);
    const device = option(args, 'device');
    if (device !== undefined && !/^(cpu|cuda:\d{1,2})$/.test(device)) throw new UsageError(`--device must be cpu or cuda:N, not "${device}"`);
    const params = labParams(lab, args.options.get('param') ?? []);
    const jsonFile = option(args, 'json');
    // Checked before the run: a refused author or an unwritable path must not cost a run's minutes.
    const report = reportArgs(args);
    if (report.pdf !== undefined) await checkWritable(report.pdf);
    const host = createLabHost({ dataDir: option(args, 'data-dir'), supervisor: { log: (line: string) => hostLog(io, line, args.flags.has('verbose')) } });
    const showProgress = progressPrinter(io, args.flags.has('quiet'));
    let headerShown = false;
    let findingsShown = false;
    const explained = new Set<string>();
    const sub = host.runs.onDidChangeRun((e) => {
      switch (e.kind) {
        case 'started':
          io.out(`${lab.descriptor.title}\nrun ${e.runId} on ${e.device}, ${e.pointsTotal} points\n\n`);
          io.out(waivedNote(e.waived ?? []));
          for (const w of e.waived ?? []) explained.add(w.reason);
          return;
        case 'progress':
          showProgress(e.progress.fraction, e.progress.etaSeconds, e.progress.current);
          return;
        case 'point':
          if (!headerShown) io.out(tableHeader());
          headerShown = true;
          io.out(tableRow(e.point, explained));
          return;
        case 'finding':
          if (!findingsShown) io.out('\nFindings\n');
          findingsShown = true;
          io.out(`${e.finding.tone === 'warning' ? '  ! ' : '  • '}${e.finding.text}\n`);
          return;
        default:
          return;
      }
    });
    const onSigint = (): void => {
      io.err('cancelling…\n');
      for (const id of active) void host.runs.cancelRun(id);
    };
    const active: string[] = [];
    process.once('SIGINT', onSigint);
    try {
      const { runId } = await host.runs.startRun({ lab: lab.descriptor.id, device, params }).catch((err: unknown) => {
        // The device is checked against this machine's only now, by the runner.
        if (err instanceof GpuLabError && err.code === 'INVALID_PARAMS') throw new UsageError(`INVALID_PARAMS: ${err.message}`);
        throw err;
      });
      active.push(runId);
      await host.runs.whenIdle();
      const record = await host.runs.getRun(runId);
      if (jsonFile) await writeFile(jsonFile, `${JSON.stringify(record, null, 2)}\n`);
      io.out(`\n${record.status} — stored as ${runId} in ${host.store.dir}\n`);
      if (report.pdf !== undefined) await reportRuns([record], { ...report, pdf: report.pdf }, io);
      const failures = runFailures(record);
      for (const line of failures) io.err(`gpu-lab run: ${line}\n`);
      return failures.length === 0 ? 0 : 1;
    } finally {
      process.removeListener('SIGINT', onSigint);
      sub.dispose();
      await host.dispose();
    }
  },
};
