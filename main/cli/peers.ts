// gpu-lab peers: the Python the labs' peer series would run on and what it offers — seed 002's questions
// (torch.cuda.is_available(), device_count(), the devices' names) answered for this machine, with NumPy's BLAS
// and each library's version, or why it is not there. Asked of the compute host, which starts the worker as a run
// would; the interpreter is --python, else GPU_LAB_PYTHON, else python3.
import { PEER_LIBRARIES, PEER_LIBRARY_NAMES } from '../common/peer-protocol.ts';
import type { PeersReport } from '../common/peer-protocol.ts';
import { ComputeHostSupervisor } from '../engine/supervisor.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { parseArgs, pathOption } from './cli-options.ts';
import { usePython } from './python-option.ts';

export function formatPeers(report: PeersReport, { t }: CliContext): string {
  if (!report.available) return t('peersReport.none', { interpreter: report.interpreter, reason: report.reason });
  const { probe } = report;
  const lines = [t('peersReport.interpreter', { version: probe.python, executable: probe.executable, interpreter: report.interpreter })];
  for (const id of PEER_LIBRARIES) {
    const lib = probe.libraries[id];
    if (!lib) continue;
    if (!lib.found) {
      // Why, in the reader's language where the probe says what kind of failure it was (Python's own words inside).
      const reason = lib.kind === 'missing' ? t('peersReport.notInstalled', { error: lib.error ?? '' }) : lib.kind === 'broken' ? t('peersReport.importFailed', { error: lib.error ?? '' }) : lib.reason;
      lines.push(t('peersReport.missing', { name: PEER_LIBRARY_NAMES[id], reason }));
      continue;
    }
    lines.push(t('peersReport.found', { name: PEER_LIBRARY_NAMES[id], version: lib.version }));
    if (lib.blas) lines.push(t('peersReport.blas', { blas: lib.blas }));
    if (lib.cudaVersion) lines.push(t('peersReport.cudaVersion', { version: lib.cudaVersion }));
    if (lib.cudaAvailable === true) lines.push(t('peersReport.cuda', { count: lib.devices?.length ?? '?', devices: lib.devices?.join(', ') ?? '?' }));
    else if (lib.cudaAvailable === false) lines.push(t('peersReport.noCuda', { reason: lib.cudaReason ? ` (${lib.cudaReason})` : '' }));
  }
  return lines.join('\n');
}

async function run(argv: string[], io: CliIo, cx: CliContext): Promise<number> {
  const args = parseArgs(argv, ['python'], ['json']);
  if (args.positional.length) throw new UsageError('usage.unexpected', { value: args.positional[0] ?? '' });
  usePython(pathOption(args, 'python'));
  const host = new ComputeHostSupervisor({ launcher: cx.launcher, log: () => undefined });
  let report: PeersReport;
  try {
    report = await host.peers(PEER_LIBRARIES);
  } finally {
    await host.stop();
  }
  io.out(args.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : `${formatPeers(report, cx)}\n`);
  return report.available ? 0 : 1;
}

export const peersCommand: CliCommand = { name: 'peers', usage: (t) => t('commands.peers.usage'), run };
