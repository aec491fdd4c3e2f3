// What the commands print of the compute host's log: its routine lines (ready, stopped) only when asked for, its
// deaths, kills and warnings always.
import type { CliIo } from './command.ts';

// Dawn's notes on a Vulkan adapter's limits as it opens one (lavapipe reports a million dynamic buffers; Dawn uses
// 16): said on stderr every time, about limits no measurement comes near.
const DAWN_LIMIT_NOTE = /Warning: maxDynamic\w+PerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.$/;

export function hostLog(io: CliIo, line: string, verbose: boolean): void {
  if (verbose || (/died|killing|warn|error|stderr/.test(line) && !DAWN_LIMIT_NOTE.test(line))) io.err(`${line}\n`);
}
