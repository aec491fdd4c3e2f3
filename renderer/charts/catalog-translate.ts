// A translate function over a plain message catalog, for the PDF report main writes without vue-i18n: the same
// keys ("results.chart.…") and the same message syntax as the renderer's catalogs, read the way vue-i18n reads them.
// "{name}" is the named value; "a | b" are plural forms, picked by the count with vue-i18n's default rule (two forms:
// the first for a count of 1, the second otherwise; three: zero, one, many), the count being the named `count` or `n`
// where the caller gives one, else the plural argument (the form for one where there is neither), which also stands in for a missing `count` or `n`. A key the
// catalog lacks comes back as the key, as vue-i18n shows it. tests/unit/reports/catalog.test.ts holds the two alike
// for every message of the results catalog.
import type { Translate } from './text.ts';

export interface Catalog {
  readonly [key: string]: string | Catalog;
}

function lookUp(catalog: Catalog, key: string): string | null {
  let node: string | Catalog | undefined = catalog;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return null;
    node = node[part];
  }
  return typeof node === 'string' ? node : null;
}

function pluralForm(forms: readonly string[], count: number): string {
  const choice = Math.abs(count);
  const index = forms.length === 2 ? (choice === 1 ? 0 : 1) : Math.min(choice, 2);
  return forms[index] ?? forms.at(-1) ?? '';
}

function countOf(named: Record<string, string | number>, plural: number | undefined): number | undefined {
  if (typeof named.count === 'number') return named.count;
  if (typeof named.n === 'number') return named.n;
  return plural;
}

export function catalogTranslate(catalog: Catalog): Translate {
  return (key, named = {}, plural) => {
    const message = lookUp(catalog, key);
    if (message === null) return key;
    // Plural forms are trimmed around their "|"; a single message keeps its spaces (a clause that begins with one).
    const split = message.split('|');
    const forms = split.length > 1 ? split.map((f) => f.trim()) : split;
    // Without a count vue-i18n reads the plural index as -1, which picks the form for one.
    const text = forms.length > 1 ? pluralForm(forms, countOf(named, plural) ?? -1) : (forms[0] ?? '');
    return text.replace(/\{([A-Za-z_]\w*)\}/g, (_, name: string) => {
      const value = named[name];
      if ((value === undefined || value === '' || value === 0) && plural !== undefined && (name === 'count' || name === 'n')) return String(plural);
      return value === undefined ? '' : String(value);
    });
  };
}
