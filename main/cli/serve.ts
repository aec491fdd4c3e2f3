// `gpu-lab serve`: the app in a browser. The lab host, the built renderer over HTTP and the contract over one
// WebSocket, until Ctrl+C; the link it prints carries the access token.
import { spawn } from 'node:child_process';

import { createLabHost } from '../runner/lab-host.ts';
import { rendererDir } from '../serve/renderer-dir.ts';
import { startServer } from '../serve/server.ts';
import type { CliCommand, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { option, parseArgs } from './cli-options.ts';
import { hostLog } from './host-log.ts';

export const DEFAULT_PORT = 8420;

const USAGE = `Usage: gpu-lab serve [--port N] [--host H] [--data-dir DIR] [--open] [--verbose]

Serves the GPU Lab app to a browser: open the link it prints (it carries the access token).
  --port      the port (default ${DEFAULT_PORT}; 0 picks a free one)
  --host      the address to listen on (default 127.0.0.1, this machine only). Anything else lets other machines
              reach the server; on a shared GPU server prefer an SSH tunnel: ssh -L ${DEFAULT_PORT}:127.0.0.1:${DEFAULT_PORT} server
  --data-dir  where runs are stored (default $XDG_DATA_HOME/gpu-lab or ~/.local/share/gpu-lab)
  --open      also open the link in the default browser
  --verbose   every compute-host log line (by default only crashes, kills and warnings)`;

// OSC 8 makes the link clickable in terminals that know it; others show the plain URL, which most also detect.
function linkLine(url: string, tty: boolean): string {
  return tty ? `\u001b]8;;${url}\u001b\\${url}\u001b]8;;\u001b\\` : url;
}

function openInBrowser(url: string, io: CliIo): void {
  const [cmd, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => io.err(`gpu-lab serve: could not open a browser (${err.message}); open the link yourself\n`));
    child.unref();
  } catch (err) {
    io.err(`gpu-lab serve: could not open a browser (${(err as Error).message}); open the link yourself\n`);
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, not "${text}"`);
  return port;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['port', 'host', 'data-dir'], ['open', 'verbose']);
  if (args.positional.length) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const port = parsePort(option(args, 'port'));
  const host = option(args, 'host') ?? '127.0.0.1';
  const staticDir = rendererDir();
  if (!staticDir) {
    io.err('gpu-lab serve: the renderer is not built (dist/web/index.html is missing): run `npm run build`\n');
    return 1;
  }
  const lab = createLabHost({ dataDir: option(args, 'data-dir'), supervisor: { log: (line: string) => hostLog(io, line, args.flags.has('verbose')) } });
  let server;
  try {
    server = await startServer({ api: lab, staticDir, host, port, log: (line) => io.err(`gpu-lab serve: ${line}\n`) });
  } catch (err) {
    await lab.dispose();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      io.err(`gpu-lab serve: port ${port} on ${host} is in use (another gpu-lab serve?): pass --port N, or --port 0 for any free port\n`);
      return 1;
    }
    throw err;
  }
  const tty = Boolean(process.stdout.isTTY);
  io.out(`GPU Lab is serving on ${server.origin} (runs stored in ${lab.store.dir}).\nOpen this link in a browser; it carries the access token:\n\n  ${linkLine(server.url, tty)}\n\nPress Ctrl+C to stop.\n`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    io.err(`gpu-lab serve: warning: listening on ${host}, not only this machine: anyone who can reach port ${server.port} and has the link can run labs and read your runs. On a shared server prefer an SSH tunnel to 127.0.0.1.\n`);
  }
  if (args.flags.has('open')) openInBrowser(server.url, io);
  const running = server;
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.err('gpu-lab serve: stopping\n');
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await running.close();
  await lab.close();
  return 0;
}

export const serveCommand: CliCommand = { name: 'serve', summary: 'serve the app to a browser (prints a link with an access token)', usage: USAGE, run };
