// The catalogs of every language, and a translate function over one of them (or over one part of it: the CLI reads
// "run.started" under cli, a lab's findings are read under labText).
import type { Locale } from '../locale.ts';
import { en, type Messages } from './en/index.ts';
import { es } from './es/index.ts';
import { catalogTranslate, type Catalog, type TextOf, type Translate } from './translate.ts';

export const CATALOGS: Record<Locale, TextOf<Messages>> = { en, es };

const cache = new Map<string, Translate>();

// The words of `locale`, the whole catalog ("pdf.page", "results.chart.…") or one part of it.
export function translator(locale: Locale, part?: keyof Messages): Translate {
  const id = `${locale}:${part ?? ''}`;
  let t = cache.get(id);
  if (!t) {
    const catalog = part ? CATALOGS[locale][part] : CATALOGS[locale];
    t = catalogTranslate(catalog as unknown as Catalog, locale);
    cache.set(id, t);
  }
  return t;
}
