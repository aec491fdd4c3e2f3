// Option parsing shared by the commands: `--name value` / `--name=value`, repeatable options, flags, the paths they
// name and the data folder every command accepts. An option is never taken for a value: `--json --quiet` would write
// the record to a file named `--quiet`, so a value that begins with `--` is refused naming the option (a file really
// named so is `./--quiet`).
import { existsSync } from 'node:fs';

import { UsageError } from './command.ts';

export interface ParsedArgs {
  positional: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
}

function checkedValue(name: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError('usage.needsValue', { name });
  if (value.startsWith('--')) throw new UsageError('usage.optionAsValue', { name, value });
  return value;
}

export function parseArgs(argv: string[], valued: readonly string[], flags: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], options: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (flags.includes(name) && eq === -1) {
      parsed.flags.add(name);
      continue;
    }
    if (!valued.includes(name)) throw new UsageError('usage.unknownOption', { name });
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    parsed.options.set(name, [...(parsed.options.get(name) ?? []), checkedValue(name, value)]);
  }
  return parsed;
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name);
  if (values && values.length > 1) throw new UsageError('usage.givenTwice', { name, count: values.length });
  return values?.[0];
}

// The --lang option, taken out of the arguments wherever it stands, since every command has it: its value, or
// undefined where it is not given.
export function takeLang(argv: readonly string[]): { argv: string[]; lang: string | undefined } {
  const rest: string[] = [];
  const given: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--lang') given.push(checkedValue('lang', argv[++i]));
    else if (arg.startsWith('--lang=')) given.push(checkedValue('lang', arg.slice('--lang='.length)));
    else rest.push(arg);
  }
  if (given.length > 1) throw new UsageError('usage.givenTwice', { name: 'lang', count: given.length });
  return { argv: rest, lang: given[0] };
}

// An option that names a file: absent, or a path; an empty one names nothing, and is refused like any other.
export function pathOption(args: ParsedArgs, name: string): string | undefined {
  const path = option(args, name);
  if (path !== undefined && path.trim() === '') throw new UsageError('usage.pathEmpty', { name: `--${name}` });
  return path;
}

// --data-dir: a non-empty path (an empty one would quietly mean the current folder). A command that only reads
// (`runs`, `report`, `kernel runs`) is given `mustExist`: a folder that is not there is a typo, said as one, and is
// never created; the default folder may be missing (nothing stored yet).
export function dataDirOption(args: ParsedArgs, mustExist = false): string | undefined {
  const dir = option(args, 'data-dir');
  if (dir === undefined) return undefined;
  if (dir.trim() === '') throw new UsageError('usage.dataDirEmpty');
  if (mustExist && !existsSync(dir)) throw new UsageError('usage.dataDirMissing', { dir });
  return dir;
}
