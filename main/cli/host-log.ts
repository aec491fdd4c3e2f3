// What the commands print of the compute host's log: its routine lines (ready, stopped) only when asked for, its
// deaths, kills and warnings always.
import type { CliIo } from './command.ts';

export function hostLog(io: CliIo, line: string, verbose: boolean): void {
  if (verbose || /died|killing|warn|error|stderr/.test(line)) io.err(`${line}\n`);
}
