// The gpu-lab command: dispatches to one subcommand per file, in the language of --lang or else the system's.
import { GpuLabError, isErrorCode } from '../common/errors.ts';
import { isLocale, setNumberLocale, systemLocale, type Locale } from '../common/pure/locale.ts';
import type { ComputeHostLauncher } from '../engine/launcher.ts';
import { batchCommand } from './batch.ts';
import { benchCommand } from './bench.ts';
import { classroomCommand } from './classroom.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { UsageError } from './command.ts';
import { takeLang } from './cli-options.ts';
import { devicesCommand } from './devices.ts';
import { kernelCommand } from './kernel.ts';
import { labsCommand } from './labs.ts';
import { peersCommand } from './peers.ts';
import { reportCommand } from './report.ts';
import { runCommand } from './run.ts';
import { runsCommand } from './runs.ts';
import { serveCommand } from './serve.ts';
import { cliText, type CliText } from './cli-text.ts';
import { errorText as errorSentence } from '../common/pure/i18n/error-text.ts';
import { translator } from '../common/pure/i18n/index.ts';
import { paramProblemOf, paramProblemText } from '../common/pure/i18n/param-problem.ts';
import { labDescriptors } from '../labs/index.ts';

export const COMMANDS: CliCommand[] = [batchCommand, benchCommand, classroomCommand, devicesCommand, kernelCommand, labsCommand, peersCommand, reportCommand, runCommand, runsCommand, serveCommand];

function help(t: CliText): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    t('main.usage'),
    '',
    t('main.commands'),
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${t(`commands.${c.name}.summary`)}`),
    '',
    t('main.more'),
    t('main.lang'),
    t('main.exitCodes'),
  ].join('\n');
}

// The language asked for, or the system's; a value that is not a language GPU Lab speaks is bad usage.
function chooseLocale(lang: string | undefined, env: Record<string, string | undefined>): Locale {
  if (lang === undefined) return systemLocale(env);
  if (isLocale(lang)) return lang;
  throw new UsageError('usage.lang', { value: lang });
}

// An error as the user reads it, in their language: a refusal of what was typed; a parameter a lab refused, worded
// from the lab's descriptor; any other error with a code, by its code (the engine's English message in English).
function errorText(err: unknown, t: CliText, locale: Locale): string {
  if (err instanceof UsageError) return t(err.key, err.named);
  const code = err instanceof GpuLabError ? err.code : (err as { code?: unknown }).code;
  const detail = err instanceof Error ? err.message : String(err);
  if (!isErrorCode(code)) return detail;
  const details = err instanceof GpuLabError ? err.details : undefined;
  // A device this machine does not have, named with the ones it has (the engine's English says the same).
  if (code === 'INVALID_PARAMS' && locale !== 'en' && details?.parameter === 'device' && Array.isArray(details.available)) {
    return t('error.coded', { code, detail: t('usage.noSuchDevice', { value: String(details.value), devices: details.available.join(', ') }) });
  }
  const lab = code === 'INVALID_PARAMS' && typeof details?.lab === 'string' ? labDescriptors(locale).find((d) => d.id === details.lab) : undefined;
  const said = lab && locale !== 'en' ? paramProblemText(paramProblemOf({ message: detail, details }), lab, translator(locale)) : errorSentence({ code, message: detail, details }, translator(locale), locale);
  return t('error.coded', { code, detail: said });
}

// This process's stdout and stderr as the command's. A reader that stops early (`gpu-lab run matmul | head -2`)
// closes the pipe: what is printed after has nowhere to go and is dropped, but the command goes on to its end (a run
// is measured and stored) and exits with its own code. A file written to standard output (`--pdf -`) is another
// matter: its write fails, and says so (writeStdout).
export function processIo(): CliIo {
  const closed = new Set<NodeJS.WriteStream>();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') closed.add(stream);
      else throw err;
    });
  }
  const print = (stream: NodeJS.WriteStream, text: string): void => {
    if (!closed.has(stream)) stream.write(text);
  };
  return {
    out: (text) => print(process.stdout, text),
    err: (text) => print(process.stderr, text),
    writeStdout: (data) =>
      new Promise((resolve, reject) => {
        if (closed.has(process.stdout)) reject(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        else process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
      }),
    ...(process.stderr.isTTY ? { terminal: { columns: () => process.stderr.columns || 80 } } : {}),
  };
}

export interface CliOptions {
  launcher?: ComputeHostLauncher;
  self?: readonly string[];
}

export async function runCli(argv: string[], io: CliIo, env: Record<string, string | undefined> = process.env, options: CliOptions = {}): Promise<number> {
  let cx: CliContext;
  let args: string[];
  try {
    const taken = takeLang(argv);
    args = taken.argv;
    const locale = chooseLocale(taken.lang, env);
    cx = { locale, t: cliText(locale), launcher: options.launcher, ...(options.self ? { self: options.self } : {}) };
  } catch (err) {
    // Said in the system's language: the one asked for is not known.
    io.err(`gpu-lab: ${errorText(err, cliText(systemLocale(env)), systemLocale(env))}\n`);
    return 2;
  }
  // Numbers in tables, findings and the PDF: "1,08 TFLOP/s" in Spanish. JSON and CSV never go through it.
  setNumberLocale(cx.locale);
  const { t } = cx;
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(`${help(t)}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`gpu-lab: ${t('main.unknownCommand', { name })}\n\n${help(t)}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${command.usage(t)}\n\n${t('main.lang')}\n${t('main.exitCodes')}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io, cx);
  } catch (err) {
    io.err(`gpu-lab ${name}: ${errorText(err, t, cx.locale)}\n`);
    // Bad input is exit 2 (README.md, "The command line"): what was typed, and a path that names what cannot be written;
    // a device another run holds, refused with --no-wait, is 75 (EX_TEMPFAIL: try again later).
    if (err instanceof GpuLabError && err.code === 'DEVICE_BUSY') return 75;
    return err instanceof UsageError || (err instanceof GpuLabError && (err.code === 'INVALID_ARGUMENT' || err.code === 'INVALID_PARAMS')) ? 2 : 1;
  }
}
