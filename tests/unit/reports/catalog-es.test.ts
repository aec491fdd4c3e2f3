// The report's words in both languages: every message of the English catalog has its Spanish one, with the same named
// values and the same number of plural forms (a "{share}" lost in translation would print nothing where the figure
// goes), and the Spanish messages read in vue-i18n's syntax as the English ones do. TextOf makes a missing key fail to
// compile; this holds what the types cannot: the names inside each message.
import { createI18n } from 'vue-i18n';
import { describe, expect, it } from 'vitest';

import type { Catalog } from '../../../main/common/pure/i18n/translate.ts';
import { catalogTranslate } from '../../../main/common/pure/i18n/translate.ts';
import { results as resultsEs } from '../../../main/common/pure/i18n/es/results.ts';
import { placeholders } from '../../../main/common/pure/message.ts';
import { pdfDeliverables as deliverableWords } from '../../../main/common/pure/i18n/en/pdf-deliverables.ts';
import { pdfDeliverables as deliverableWordsEs } from '../../../main/common/pure/i18n/es/pdf-deliverables.ts';
import { pdf as reportWords } from '../../../main/common/pure/i18n/en/pdf.ts';
import { pdf as reportWordsEs } from '../../../main/common/pure/i18n/es/pdf.ts';

function messages(catalog: Catalog, prefix: string): [string, string][] {
  return Object.entries(catalog).flatMap(([name, value]) =>
    typeof value === 'string' ? [[`${prefix}${name}`, value] as [string, string]] : messages(value, `${prefix}${name}.`),
  );
}

const forms = (message: string): number => message.split('|').length;

describe.each([
  ['report words', reportWords, reportWordsEs, 'pdf.'],
  ['deliverable words', deliverableWords, deliverableWordsEs, 'pdf.deliverable.'],
])('the %s in Spanish', (_, en, es, prefix) => {
  const english = new Map(messages(en, prefix));
  const spanish = new Map(messages(es, prefix));

  it('have exactly the keys of the English', () => {
    expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
    expect(spanish.size).toBeGreaterThan(prefix === 'pdf.' ? 300 : 150);
  });

  it.each([...english.entries()])('%s has the same named values and plural forms', (key, message) => {
    const translated = spanish.get(key) ?? '';
    expect(placeholders(translated)).toEqual(placeholders(message));
    expect(forms(translated)).toBe(forms(message));
  });
});

describe('the Spanish report words', () => {
  // Words that are the same in both languages: names, units and marks.
  const SAME = new Set([
    'pdf.creator',
    'pdf.footer',
    'pdf.header.both',
    'pdf.header.one',
    'pdf.facts.app',
    'pdf.environment.cpu',
    'pdf.environment.cuda',
    'pdf.environment.no',
    'pdf.deliverable.elementwise.a.opValue',
    'pdf.deliverable.elementwise.columns.gpu',
    'pdf.deliverable.matmulBreakeven.columns.n',
    'pdf.kernelRun.verification.toleranceValue.rms',
  ]);
  const english = new Map(messages(reportWords, 'pdf.'));

  it('are translated: none reads as its English but names, units and marks', () => {
    const untranslated = messages(reportWordsEs, 'pdf.').filter(([key, m]) => m === english.get(key) && !SAME.has(key) && /[a-z]{3}/.test(m.replace(/\{\w+\}/g, '')));
    const technical = /^(SIMD|UUID|ECC|cuBLAS|NVRTC|NVML|Node\.js|Node-API|GPU Lab|\{value\} (MHz|W|°C))$/;
    expect(untranslated.filter(([, m]) => !technical.test(m))).toEqual([]);
  });

  it('read in Spanish as vue-i18n reads them, so that they can be one of its catalogs', () => {
    const i18n = createI18n({ legacy: false, locale: 'es', messages: { es: { results: resultsEs, pdf: reportWordsEs } } });
    const plain = catalogTranslate({ results: resultsEs, pdf: reportWordsEs });
    for (const [key, message] of messages(reportWordsEs, 'pdf.')) {
      const named = Object.fromEntries(placeholders(message).map((n, i) => [n, `‹${n} ${i}›`]));
      expect(plain(key, named)).toBe(i18n.global.t(key, named));
      for (const count of [0, 1, 2]) expect(plain(key, named, count)).toBe(i18n.global.t(key, named, count));
    }
  });
});
