// The one message engine of GPU Lab: vue-i18n's own core (@intlify/core-base, which vue-i18n runs in the renderer)
// reads every catalog of ./en and ./es, in the app, the CLI and the PDF alike. "{name}" is a named value; "a | b" are
// plural forms (the form for one first), picked by the named `count` (or `n`) or by the plural argument; "{'|'}",
// "{'@'}", "{'{'}" write those characters as they are. A key a catalog lacks comes back as the key, as vue-i18n
// shows it. Pure: no Node, no Vue.
import {
  compile,
  createCoreContext,
  fallbackWithLocaleChain,
  registerLocaleFallbacker,
  registerMessageCompiler,
  registerMessageResolver,
  resolveValue,
  translate,
} from '@intlify/core-base';

import type { Locale } from '../locale.ts';

// What a chart, a table, a report or the CLI calls to get its words: vue-i18n's t has this shape too.
export type Translate = (key: string, named?: Record<string, string | number>, plural?: number) => string;

export interface Catalog {
  readonly [key: string]: string | Catalog;
}

// The shape of a second language's catalog: the same keys as English, any words (a missing or extra key fails to
// compile; tests/unit/i18n/catalogs.test.ts checks every message's named values and that each one compiles).
export type TextOf<T> = { readonly [K in keyof T]: T[K] extends string ? string : TextOf<T[K]> };

// What vue-i18n's createI18n registers for itself; the same functions, so that main reads a message exactly as the
// renderer does.
registerMessageCompiler(compile);
registerMessageResolver(resolveValue);
registerLocaleFallbacker(fallbackWithLocaleChain);

export function catalogTranslate(catalog: Catalog, locale: Locale = 'en'): Translate {
  const context = createCoreContext({
    locale,
    messages: { [locale]: catalog },
    missingWarn: false,
    fallbackWarn: false,
    warnHtmlMessage: false,
  });
  return (key, named = {}, plural) => {
    const text = plural === undefined ? translate(context, key, named) : translate(context, key, named, { plural });
    return typeof text === 'string' ? text : key;
  };
}

// The descriptor's templates are flat ("matmul-breakeven.findings.overtakes"); the engine reads a nested catalog
// (it splits a key on its dots), whose plural forms and named values are read as vue-i18n reads them.
export function nestCatalog(messages: Readonly<Record<string, string>>): Catalog {
  const root: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(messages)) {
    const parts = key.split('.');
    const last = parts.pop() ?? key;
    let node = root;
    for (const part of parts) {
      const next = node[part];
      if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
      else node = node[part] = {};
    }
    node[last] = template;
  }
  return root as Catalog;
}

const flatCache = new WeakMap<Readonly<Record<string, string>>, Partial<Record<Locale, Translate>>>();

// A translate function over flat templates (a lab descriptor's `messages`), made once for each set and language.
export function flatTranslate(messages: Readonly<Record<string, string>>, locale: Locale): Translate {
  const known = flatCache.get(messages) ?? {};
  const made = known[locale] ?? catalogTranslate(nestCatalog(messages), locale);
  known[locale] = made;
  flatCache.set(messages, known);
  return made;
}

// Whether a template is a message vue-i18n can read (a stray "@" or "|" or an unclosed "{" is not): the reason, or
// null. The catalog test runs every message of every language through it.
export function messageProblem(template: string): string | null {
  try {
    compile(template, { key: 'check', locale: 'en', onError: (e) => { throw e; }, warnHtmlMessage: false });
    return null;
  } catch (err) {
    return err instanceof Error ? err.message.split('\n')[0] ?? err.message : String(err);
  }
}
