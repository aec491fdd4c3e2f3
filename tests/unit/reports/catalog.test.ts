// The report reads the chart and table words through a plain translate function, not vue-i18n: for every message
// of the results catalog, with the named values its placeholders ask for and plural counts 0, 1, 2 and 5, it gives
// exactly what the renderer's vue-i18n gives, so that the PDF says what the app says. The report's own words are
// held to vue-i18n the same way, so that they stay in its syntax (a stray "|" is a plural, a stray "{" a value) and
// can become one of its catalogs.
import { createI18n } from 'vue-i18n';
import { describe, expect, it } from 'vitest';

import type { Catalog } from '../../../main/common/pure/i18n/translate.ts';
import { catalogTranslate } from '../../../main/common/pure/i18n/translate.ts';
import { results } from '../../../main/common/pure/i18n/en/results.ts';
import { appMessages as en } from '../../../main/common/pure/i18n/en/index.ts';
import { pdf as reportWords } from '../../../main/common/pure/i18n/en/pdf.ts';

function messages(catalog: Catalog, prefix: string): [string, string][] {
  return Object.entries(catalog).flatMap(([name, value]) =>
    typeof value === 'string' ? [[`${prefix}${name}`, value] as [string, string]] : messages(value, `${prefix}${name}.`),
  );
}

const i18n = createI18n({ legacy: false, locale: 'en', messages: { en: { ...en, pdf: reportWords } } });
const plain = catalogTranslate({ results, pdf: reportWords });

function matchesVueI18n(key: string, message: string): void {
  const names = [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  const named = Object.fromEntries(names.map((n, i) => [n, `‹${n} ${i}›`]));
  expect(plain(key, named)).toBe(i18n.global.t(key, named));
  for (const count of [0, 1, 2, 5]) {
    expect(plain(key, named, count)).toBe(i18n.global.t(key, named, count));
    const counted = { ...named, count };
    expect(plain(key, counted, count)).toBe(i18n.global.t(key, counted, count));
  }
}

describe('the plain catalog translate', () => {
  const all = messages(results, 'results.');

  it('covers the results catalog the renderer registers under "results"', () => {
    expect(en.results).toBe(results);
    expect(all.length).toBeGreaterThan(80);
  });

  it.each(all)('%s reads as vue-i18n reads it', matchesVueI18n);

  it.each(messages(reportWords, 'pdf.'))('the report’s %s reads as vue-i18n reads it', matchesVueI18n);

  it('has no "|" in a report message but where it separates plural forms', () => {
    const plurals = messages(reportWords, 'pdf.').filter(([, m]) => m.includes('|')).map(([k]) => k);
    expect(plurals.sort()).toEqual(
      [
        'pdf.class.leftOut',
        'pdf.kernelRun.verification.verdict.incomplete',
        'pdf.method.samplingCloser',
        'pdf.kernelRun.verification.verdict.unwritten',
        'pdf.kernelRun.verification.verdict.wrong',
        'pdf.results.count.cancelled',
        'pdf.results.count.failed',
        'pdf.results.count.ok',
        'pdf.results.count.waived',
        'pdf.results.reasonNote',
      ].sort(),
    );
  });

  // "1 point measured", never "1 points measured", in both languages: the counts under the PDF's results table.
  it('writes each count of the results table in the form its number takes', async () => {
    const { pdf: palabras } = await import('../../../main/common/pure/i18n/es/pdf.ts');
    const es = catalogTranslate({ pdf: palabras });
    const part = (t: typeof plain, status: string, count: number): string => t(`pdf.results.count.${status}`, { count });
    expect([1, 2].map((n) => part(plain, 'ok', n))).toEqual(['1 point measured', '2 points measured']);
    expect([1, 2].map((n) => part(es, 'ok', n))).toEqual(['1 punto medido', '2 puntos medidos']);
    expect([1, 2].map((n) => part(es, 'waived', n))).toEqual(['1 omitido', '2 omitidos']);
    expect([1, 2].map((n) => part(es, 'failed', n))).toEqual(['1 fallido', '2 fallidos']);
    // A reason under the table, with the points it covers.
    const note = (t: typeof plain, count: number): string => t('pdf.results.reasonNote', { mark: 'a', count, reason: 'r' }, count);
    expect([1, 2].map((n) => note(plain, n))).toEqual(['[a] 1 point: r', '[a] 2 points: r']);
    expect([1, 2].map((n) => note(es, n))).toEqual(['[a] 1 punto: r', '[a] 2 puntos: r']);
  });

  it('answers a key the catalog lacks with the key, as vue-i18n shows it', () => {
    expect(plain('results.chart.nothingHere')).toBe('results.chart.nothingHere');
  });
});
