// The CLI's words in the language it speaks: t('run.findings'), t('run.started', { run, device, count }), read from
// the "cli" part of the catalogs (common/pure/i18n) by the one message engine: "a | b" are the forms for one and for
// more, picked by `count`; the usage texts write a literal bar as {'|'}. A key is checked when compiled.
import type { CliCatalog } from '../common/pure/i18n/en/cli.ts';
import { translator } from '../common/pure/i18n/index.ts';
import type { Locale } from '../common/pure/locale.ts';

// Every message's dotted key.
type Keys<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Keys<T[K], `${P}${K}.`>;
}[keyof T & string];

export type CliKey = Keys<CliCatalog>;
export type Named = Record<string, string | number>;
export type CliText = (key: CliKey, named?: Named) => string;

export function cliText(locale: Locale): CliText {
  const t = translator(locale, 'cli');
  return (key, named = {}) => t(key, named);
}

// A paragraph in lines of at most `width` characters after `prefix` (a longer word keeps its own line).
export function wrap(text: string, prefix: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${prefix}${l}`).join('\n');
}
