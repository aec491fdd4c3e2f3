// The CLI's words in the language it speaks: t('run.findings'), t('run.started', { run, device, count }). A key
// is checked when compiled; a message with forms `one` and `other` is picked by its `count` (English and Spanish
// have those two forms only). Not vue-i18n's syntax: usage texts are full of "a|b", which it would read as plurals.
import type { Locale } from '../../common/locale.ts';
import { cliEn, type CliCatalog } from './en.ts';
import { cliEs } from './es.ts';

interface Plural {
  readonly one: string;
  readonly other: string;
}

// Every message's dotted key: a string, or a plural form pair taken as one message.
type Keys<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string | Plural ? `${P}${K}` : Keys<T[K], `${P}${K}.`>;
}[keyof T & string];

export type CliKey = Keys<CliCatalog>;
export type Named = Record<string, string | number>;
export type CliText = (key: CliKey, named?: Named) => string;

type Node = string | Plural | { readonly [key: string]: Node };

const CATALOGS: Record<Locale, Node> = { en: cliEn, es: cliEs };

function isPlural(node: Node): node is Plural {
  return typeof node === 'object' && 'one' in node && 'other' in node && typeof node.one === 'string';
}

function lookUp(catalog: Node, key: string): string | Plural {
  let node: Node | undefined = catalog;
  for (const part of key.split('.')) node = typeof node === 'object' && !isPlural(node) ? node[part] : undefined;
  if (node === undefined || (typeof node === 'object' && !isPlural(node))) throw new Error(`gpu-lab: no message "${key}"`);
  return node;
}

// "{name}" → its value; a name the caller did not give stays as written, so that the gap shows.
export function fill(template: string, named: Named): string {
  return template.replace(/\{([A-Za-z_]\w*)\}/g, (whole, name: string) => (named[name] === undefined ? whole : String(named[name])));
}

export function cliText(locale: Locale): CliText {
  const catalog = CATALOGS[locale];
  return (key, named = {}) => {
    const message = lookUp(catalog, key);
    const template = typeof message === 'string' ? message : named.count === 1 ? message.one : message.other;
    return fill(template, named);
  };
}
