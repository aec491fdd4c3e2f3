// The gpu-lab command: dispatches to one subcommand per file.
import { benchCommand } from './bench.ts';
import type { CliCommand, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { devicesCommand } from './devices.ts';
import { labsCommand } from './labs.ts';
import { reportCommand } from './report.ts';
import { runCommand } from './run.ts';
import { runsCommand } from './runs.ts';
import { serveCommand } from './serve.ts';

export const COMMANDS: CliCommand[] = [benchCommand, devicesCommand, labsCommand, reportCommand, runCommand, runsCommand, serveCommand];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: gpu-lab <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `gpu-lab <command> --help` for the options of one command.',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(`${help()}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`gpu-lab: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`gpu-lab ${name}: ${err.message}\n`);
      return 2;
    }
    const code = (err as { code?: unknown }).code;
    io.err(`gpu-lab ${name}: ${typeof code === 'string' ? `${code}: ` : ''}${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
