// The gpu-lab command as the installed app runs it (README.md, "On a GPU server without a display"). The `gpu-lab` on PATH is a launcher
// (build-resources/linux/gpu-lab) that starts the app's own binary as
//
//   gpu-lab --gpu-lab-cli --ozone-platform=headless [--no-sandbox] -- <the command's arguments>
//
// Chromium reads the switches before `--` and nothing after it, so the command's own options (`--lang`, `--help`,
// `--port`) reach the command untouched. What main/electron does with this is wiring; the decisions are here, where
// plain Node can test them.

import { join } from 'node:path';

export const INSTALLED_CLI_SWITCH = '--gpu-lab-cli';

// The command's arguments when the app was started as the command, else null: the window (the desktop entry starts
// the binary with no switch, or with files to open).
export function installedCliArgs(argv: readonly string[]): string[] | null {
  const end = argv.indexOf('--');
  const switches = end === -1 ? argv : argv.slice(0, end);
  if (!switches.includes(INSTALLED_CLI_SWITCH)) return null;
  return end === -1 ? [] : argv.slice(end + 1);
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// Ctrl-C, SIGTERM and SIGHUP as plain Node meets them (ARCHITECTURE.md, "Signals"). Electron catches the three before
// the app is ready and makes each a quit of the app, exit 0: a cancelled `gpu-lab devices` would look like a success
// to a script. A listener added once the app is ready takes the signal back (libuv installs its own handler with the
// first listener of a signal). A command that listens itself (run, serve) decides what the signal does; for any
// other, this one ends the process by the signal, as Node would with no listener: the last listener gone, the
// signal's default action is back.
export function takeBackStopSignals(proc: NodeJS.Process = process): void {
  for (const signal of STOP_SIGNALS) {
    const asNodeWould = (): void => {
      if (proc.listenerCount(signal) > 1) return;
      proc.off(signal, asNodeWould);
      proc.kill(proc.pid, signal);
    };
    proc.on(signal, asNodeWould);
  }
}

// How the installed app's command starts itself again (a batch job's tasks run it on their nodes): its launcher,
// resources/bin/gpu-lab, by absolute path, never the binary itself (the launcher adds the switches it needs). Not
// packaged (a development Electron) there is no launcher: unset.
export function installedSelf(isPackaged: boolean, resourcesPath: string): string[] | undefined {
  return isPackaged ? [join(resourcesPath, 'bin', 'gpu-lab')] : undefined;
}
