// One CLI subcommand: its name, a line of help, and run(), which returns the process exit code.
// Exit codes: 0 success, 1 a failed run or measurement (the error code is printed), 2 bad usage.

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
