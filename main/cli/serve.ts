// `gpu-lab serve`: the app in a browser. The lab host, the built renderer over HTTP and the contract over one
// WebSocket, until Ctrl+C; the link it prints carries the access token.
import { spawn } from 'node:child_process';

import { createLabHost, defaultDataDir } from '../app/lab-host.ts';
import type { Classroom } from '../classroom/classroom.ts';
import { rendererDir } from '../serve/renderer-dir.ts';
import { startServer } from '../serve/server.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { dataDirOption, option, parseArgs, pathOption } from './cli-options.ts';
import { integerOption } from './decimal.ts';
import { hostLog } from './host-log.ts';
import { usePython } from './python-option.ts';
import { CLASSROOM_OPTIONS, capsOption, classroomBanner, openClassroomOption, tlsOption } from './serve-classroom.ts';
import type { CliText } from './cli-text.ts';

export const DEFAULT_PORT = 8420;

// Ctrl-C, a polite kill or the terminal closing: the same orderly stop (the pages let go, runs cancelled and stored as
// cancelled, the compute host stopped), then exit 0; within this time whatever reads or runs are in flight
// (README.md, "Serve mode"). A second signal ends serve at once.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const STOP_WITHIN_MS = 2500;

// OSC 8 makes the link clickable in terminals that know it; others show the plain URL, which most also detect.
function linkLine(url: string, tty: boolean): string {
  return tty ? `\u001b]8;;${url}\u001b\\${url}\u001b]8;;\u001b\\` : url;
}

function openInBrowser(url: string, io: CliIo, t: CliText): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => io.err(`gpu-lab serve: ${t('serve.noBrowser', { detail: err.message })}\n`));
    child.unref();
  } catch (err) {
    io.err(`gpu-lab serve: ${t('serve.noBrowser', { detail: (err as Error).message })}\n`);
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  return integerOption('port', text, { min: 0, max: 65535 }, () => new UsageError('usage.port', { value: text }));
}

async function run(argv: string[], io: CliIo, { t, launcher, locale }: CliContext): Promise<number> {
  const args = parseArgs(argv, ['port', 'host', 'data-dir', 'python', ...CLASSROOM_OPTIONS], ['open', 'verbose']);
  if (args.positional.length) throw new UsageError('usage.unexpected', { value: args.positional[0] ?? '' });
  // The Python peers' interpreter, for as long as the server runs: named here by whoever starts it (or in
  // GPU_LAB_PYTHON), never by a page, which would let a token holder run any program on this machine.
  usePython(pathOption(args, 'python'));
  const port = parsePort(option(args, 'port'));
  const host = option(args, 'host') ?? '127.0.0.1';
  capsOption(args);
  const tls = tlsOption(args, t);
  const staticDir = rendererDir();
  if (!staticDir) {
    io.err(`gpu-lab serve: ${t('serve.notBuilt')}\n`);
    return 1;
  }
  const dataDir = dataDirOption(args) ?? defaultDataDir();
  let classroom: Classroom | undefined;
  // A kernel run of a class waiting for a device another program holds: its queue says so to the students.
  const lab = createLabHost({ dataDir, supervisor: { launcher, log: (line: string) => hostLog(io, line, args.flags.has('verbose')) }, onDeviceWait: (holder) => classroom?.deviceWaited(holder) });
  let server;
  try {
    classroom = await openClassroomOption(args, lab, dataDir);
    // A class's students start runs of their own: the class's queue (one run each) bounds them, not these.
    const limits = classroom ? { runsWaiting: 2000, runStartsPerMinute: 600 } : undefined;
    server = await startServer({ api: lab, staticDir, host, port, classroom, tls, limits, log: (line) => io.err(`gpu-lab serve: ${line}\n`) });
  } catch (err) {
    classroom?.dispose();
    await lab.dispose();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      io.err(`gpu-lab serve: ${t('serve.portInUse', { port, host })}\n`);
      return 1;
    }
    throw err;
  }
  const tty = Boolean(process.stdout.isTTY);
  if (classroom && server.classUrl) {
    const links = { teacher: linkLine(server.url, tty), students: linkLine(server.classUrl, tty) };
    io.out(`${classroomBanner(t, locale, { name: classroom.name, origin: server.origin, dir: lab.store.dir, ...links, caps: classroom.store.caps })}\n`);
  } else io.out(`${t('serve.serving', { origin: server.origin, dir: lab.store.dir, link: linkLine(server.url, tty) })}\n`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    io.err(`gpu-lab serve: ${t('serve.exposed', { host, port: server.port })}\n`);
    if (!tls) io.err(`gpu-lab serve: ${t('serve.inClear', { origin: server.origin })}\n`);
  }
  if (args.flags.has('open')) openInBrowser(server.url, io, t);
  const running = server;
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
    function stop(signal: NodeJS.Signals): void {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve(signal);
    }
  });
  io.err(`gpu-lab serve: ${t('serve.stopping')}\n`);
  const started = Date.now();
  // What the process cannot end by itself (a read the system never returns from holds a thread Node's exit waits for)
  // ends by the signal it was sent, with nothing left to listen to it.
  setTimeout(() => process.kill(process.pid, signal), STOP_WITHIN_MS + 250).unref();
  await running.close();
  classroom?.dispose();
  await lab.close(Math.max(0, STOP_WITHIN_MS - (Date.now() - started)));
  return 0;
}

export const serveCommand: CliCommand = { name: 'serve', usage: (t) => t('commands.serve.usage', { port: DEFAULT_PORT }), run };
