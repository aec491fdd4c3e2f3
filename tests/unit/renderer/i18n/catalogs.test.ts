// The renderer's two catalogs say the same things: the same keys, the same named values and plural forms in each
// message, every Spanish message valid vue-i18n syntax (a stray "@", "{" or "|" would show as an error or a wrong
// plural on screen), and nothing left in English but names that read the same in both. The Spanish results words are
// held to vue-i18n like the English ones, so that the PDF in Spanish says what the app says.
import { baseCompile } from '@intlify/message-compiler';
import { createI18n } from 'vue-i18n';
import { describe, expect, it } from 'vitest';

import { placeholders } from '../../../../main/common/message.ts';
import { catalogTranslate } from '../../../../renderer/charts/catalog-translate.ts';
import { results } from '../../../../renderer/charts/results-catalog.ts';
import { resultsEs } from '../../../../renderer/charts/results-catalog-es.ts';
import { en } from '../../../../renderer/i18n/en/index.ts';
import { es } from '../../../../renderer/i18n/es/index.ts';

type Tree = { readonly [key: string]: string | Tree };

function flat(node: string | Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else for (const [k, v] of Object.entries(node)) flat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const enMessages = flat(en as Tree);
const esMessages = flat(es as Tree);

// Messages that read the same in Spanish: names, units and symbols.
const SAME_IN_BOTH = new Set([
  'app.name',
  'app.liveRun.running',
  'devices.no',
  'devices.units.mhz',
  'devices.units.watts',
  'devices.units.celsius',
  'devices.units.percent',
  'devices.picker.cpu',
  'devices.gpu.fields.uuid.label',
  'devices.gpu.fields.ecc.label',
  'devices.gpu.fields.memoryTotal.label',
  'devices.cpu.kind',
  'devices.cpu.fields.model.label',
  'devices.cpu.fields.l2.label',
  'devices.cpu.fields.l3.label',
  'devices.peaks.pcie.label',
  'devices.telemetry.powerOfLimit',
  'history.filters.cpuOnly',
  'history.duration.ms',
  'history.duration.seconds',
  'history.duration.minutes',
  'history.duration.hours',
  'history.actions.json',
  'labs.params.hintBytes',
  'labs.progress.seconds',
  'labs.progress.minutes',
  'results.chart.size.bytes',
  'results.chart.size.matrixN',
  'results.chart.breakEven.line',
  'results.compare.legend',
  'results.compare.ratios.ratio',
]);

function compileErrors(message: string): string[] {
  const errors: string[] = [];
  baseCompile(message, { onError: (e) => errors.push(e.message) });
  return errors;
}

describe('the renderer catalogs in English and Spanish', () => {
  it('have the same keys', () => {
    expect([...esMessages.keys()].sort()).toEqual([...enMessages.keys()].sort());
    expect(enMessages.size).toBeGreaterThan(400);
  });

  it.each([...enMessages.keys()])('%s has the same named values and plural forms in Spanish', (key) => {
    const english = enMessages.get(key) ?? '';
    const spanish = esMessages.get(key) ?? '';
    expect(placeholders(spanish), spanish).toEqual(placeholders(english));
    expect(spanish.split('|').length, 'plural forms').toBe(english.split('|').length);
  });

  it.each([...esMessages.entries()])('%s compiles in vue-i18n', (_key, message) => {
    expect(compileErrors(message)).toEqual([]);
  });

  it('leaves nothing in English but names and units', () => {
    const untranslated = [...enMessages.keys()].filter((k) => enMessages.get(k) === esMessages.get(k) && !SAME_IN_BOTH.has(k));
    expect(untranslated).toEqual([]);
  });

  it('registers the results words the PDF reads under "results"', () => {
    expect(es.results).toBe(resultsEs);
    expect(en.results).toBe(results);
  });
});

describe('the Spanish results words read alike in vue-i18n and in the PDF', () => {
  const i18n = createI18n({ legacy: false, locale: 'es', messages: { es: { results: resultsEs } } });
  const plain = catalogTranslate({ results: resultsEs });
  const all = [...flat(resultsEs as Tree, 'results').entries()];

  it.each(all)('%s', (key, message) => {
    const named = Object.fromEntries(placeholders(message).map((n, i) => [n, `‹${n} ${i}›`]));
    expect(plain(key, named)).toBe(i18n.global.t(key, named));
    for (const count of [0, 1, 2, 5]) expect(plain(key, { ...named, count }, count)).toBe(i18n.global.t(key, { ...named, count }, count));
  });

  it('speaks Spanish with a Spanish plural', () => {
    expect(plain('results.table.waivedOnce', { count: 3, reason: 'no hay GPU' }, 3)).toBe('Se han omitido 3 puntos, todos por el mismo motivo: no hay GPU.');
    expect(plain('results.table.waivedOnce', { count: 1, reason: 'no hay GPU' }, 1)).toBe('Un punto se ha omitido: no hay GPU.');
  });
});
