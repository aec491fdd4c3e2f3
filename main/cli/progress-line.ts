// A run's progress as a reader sees it. On a terminal it is one line on stderr that rewrites itself, cleared before
// anything else is written to either stream, so it never lands between the table's rows; cut to the terminal's
// width, since a line that wraps cannot be rewritten. Anywhere else (a pipe, a file, a CI log) each update is a line
// of its own, at most one a second.
import type { CliIo } from './command.ts';
import { stdoutOf } from './command.ts';

export interface ProgressLine {
  // The streams to write everything else through: each write clears the progress line first.
  io: CliIo;
  show(text: string): void;
  clear(): void;
}

const CLEAR = '\r\x1b[2K';

export function progressLine(io: CliIo, quiet: boolean): ProgressLine {
  const terminal = io.terminal !== undefined;
  let visible = false;
  let last = 0;
  const clear = (): void => {
    if (!visible) return;
    visible = false;
    io.err(CLEAR);
  };
  return {
    io: {
      out: (text) => {
        clear();
        io.out(text);
      },
      err: (text) => {
        clear();
        io.err(text);
      },
      writeStdout: async (data) => {
        clear();
        await stdoutOf(io)(data);
      },
      ...(io.terminal ? { terminal: io.terminal } : {}),
    },
    show(text) {
      const now = Date.now();
      if (quiet || now - last < (terminal ? 200 : 1000)) return;
      last = now;
      if (!terminal) return io.err(`${text}\n`);
      const width = Math.max(20, (io.terminal?.columns() ?? 80) - 1);
      const chars = [...text];
      io.err(`${CLEAR}${chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : text}`);
      visible = true;
    },
    clear,
  };
}
