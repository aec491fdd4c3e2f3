// The installed app's command line, its decisions under plain Node (main/cli/installed.ts): which start of the app's
// binary is the command and which the window, the command's arguments exactly as typed after `--`; and the stop
// signals, taken back from Electron's quit-on-signal, which a command that listens decides and which otherwise end
// the process by the signal, as they end plain Node (real processes, real signals).
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { installedCliArgs, installedSelf } from '../../../main/cli/installed.ts';

const BINARY = '/opt/GPU Lab/gpu-lab';

describe('installedSelf', () => {
  it('starts the command again through its launcher, by absolute path, and has none where the app is not packaged', () => {
    expect(installedSelf(true, '/opt/GPU Lab/resources')).toEqual(['/opt/GPU Lab/resources/bin/gpu-lab']);
    expect(installedSelf(false, '/repo/node_modules/electron/dist/resources')).toBeUndefined();
  });
});

describe('installedCliArgs', () => {
  it('is the window for the desktop entry: no switch, or files to open', () => {
    expect(installedCliArgs([BINARY])).toBeNull();
    expect(installedCliArgs([BINARY, '/home/ana/run.json'])).toBeNull();
    // From a checkout: `electron .`.
    expect(installedCliArgs(['/repo/node_modules/electron/dist/electron', '.'])).toBeNull();
  });

  it('is the command for the launcher, whose arguments follow `--` as typed, switches and all', () => {
    expect(installedCliArgs([BINARY, '--gpu-lab-cli', '--ozone-platform=headless', '--no-sandbox', '--', 'run', 'matmul', '--lang', 'es', '--', '--help'])).toEqual(['run', 'matmul', '--lang', 'es', '--', '--help']);
    expect(installedCliArgs(['/repo/node_modules/electron/dist/electron', '.', '--gpu-lab-cli', '--', 'devices'])).toEqual(['devices']);
    // No `--`: no arguments, and the command says how it is used.
    expect(installedCliArgs([BINARY, '--gpu-lab-cli'])).toEqual([]);
  });

  it('never takes the switch from the arguments: a window started with it after `--` stays a window', () => {
    expect(installedCliArgs([BINARY, '--', '--gpu-lab-cli'])).toBeNull();
  });
});

const installed = pathToFileURL(fileURLToPath(new URL('../../../main/cli/installed.ts', import.meta.url))).href;

// A process that takes the stop signals back and, with `commandListens`, listens itself as `gpu-lab run` does: the
// first signal starts a cancellation that takes a moment and ends with exit 130, a second one exits at once with 131.
// `listensThenStops` listens and stops listening again, as a finished run does. It says "ready" once its listeners
// are in place.
function started(mode: 'alone' | 'commandListens' | 'listensThenStops'): { ready: Promise<void>; pid: number; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; out: () => string } {
  const script = `
    const { takeBackStopSignals } = await import(${JSON.stringify(installed)});
    takeBackStopSignals();
    const mode = ${JSON.stringify(mode)};
    let stops = 0;
    const onStop = (signal) => {
      if (++stops > 1) process.exit(131);
      console.log('cancelling on ' + signal);
      setTimeout(() => process.exit(130), 300);
    };
    if (mode !== 'alone') for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, onStop);
    if (mode === 'listensThenStops') for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(s, onStop);
    console.log('ready');
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve();
    }),
  );
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { ready, pid: child.pid ?? -1, exit, out: () => out };
}

describe('takeBackStopSignals', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('lets a command that listens decide what %s does, once per signal', async (signal) => {
    const p = started('commandListens');
    await p.ready;
    process.kill(p.pid, signal);
    expect(await p.exit).toEqual({ code: 130, signal: null });
    expect(p.out()).toContain(`cancelling on ${signal}`);
  });

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('ends a command that does not listen by %s, as it ends plain Node', async (signal) => {
    const p = started('alone');
    await p.ready;
    process.kill(p.pid, signal);
    expect(await p.exit).toEqual({ code: null, signal });
  });

  it('ends a command that has stopped listening by the signal again', async () => {
    const p = started('listensThenStops');
    await p.ready;
    process.kill(p.pid, 'SIGINT');
    expect(await p.exit).toEqual({ code: null, signal: 'SIGINT' });
  });
});
