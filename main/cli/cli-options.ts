// Option parsing shared by the lab commands: `--name value` / `--name=value`, repeatable options, flags, and the
// data folder every command accepts.
import { UsageError } from './command.ts';

export interface ParsedArgs {
  positional: string[];
  options: Map<string, string[]>;
  flags: Set<string>;
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
    if (!valued.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    parsed.options.set(name, [...(parsed.options.get(name) ?? []), value]);
  }
  return parsed;
}

export function option(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name);
  if (values && values.length > 1) throw new UsageError(`--${name} given ${values.length} times`);
  return values?.[0];
}
