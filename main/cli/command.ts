// Where a file named `-` is written: the streams' own writer, else out() (a test's io).
export function stdoutOf(io: CliIo): (data: string | Uint8Array) => Promise<void> {
  return io.writeStdout ?? (async (data) => io.out(typeof data === 'string' ? data : Buffer.from(data).toString('latin1')));
}

// One CLI subcommand: its name, its help in the language the CLI speaks, and run(), which returns the process exit
// code. Exit codes: 0 success, 1 a failed run or measurement (the error code is printed), 2 bad usage.
import type { Locale } from '../common/pure/locale.ts';
import type { ComputeHostLauncher } from '../engine/launcher.ts';
import { cliText, type CliKey, type CliText, type Named } from './cli-text.ts';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  // Standard output as a file written to (`--pdf -`, `--json -`): resolves once the bytes are handed over, rejects
  // where they cannot be (its reader gone). Absent: through out(), as text.
  writeStdout?: (data: string | Uint8Array) => Promise<void>;
  // Present when stderr is a terminal: its width now, in columns (a progress line rewrites itself there).
  terminal?: { columns: () => number };
}

// The language of this invocation (--lang, else the system's) and its words, and how its compute host starts.
export interface CliContext {
  locale: Locale;
  t: CliText;
  // Unset: a fork of this Node (bin/gpu-lab.js). The installed app passes its utility process, since its fuses
  // forbid running its binary as Node (main/electron/cli-mode.ts).
  launcher?: ComputeHostLauncher;
  // How this gpu-lab is started again, by absolute paths (node and bin/gpu-lab.js, or the installed launcher): a
  // batch job's tasks run the same on their nodes. Unset where it cannot be told (the CLI called as a library).
  self?: readonly string[];
}

export type CommandName = 'batch' | 'bench' | 'classroom' | 'devices' | 'kernel' | 'labs' | 'peers' | 'report' | 'run' | 'runs' | 'serve';

export interface CliCommand {
  name: CommandName;
  // The full help; the one-line summary is the catalog's commands.<name>.summary.
  usage(t: CliText): string;
  run(argv: string[], io: CliIo, cx: CliContext): Promise<number>;
}

// Bad usage, said in the user's language where it is printed: a message of the CLI's catalog and its values. The
// Error's own message is the English, for a stack trace.
export class UsageError extends Error {
  readonly key: CliKey;
  readonly named: Named;

  constructor(key: CliKey, named: Named = {}) {
    super(cliText('en')(key, named));
    this.name = 'UsageError';
    this.key = key;
    this.named = named;
  }
}
