// Every catalog of GPU Lab says the same things in English and Spanish — the app's pages, the CLI, the PDF, the labs'
// findings and the exercises: the same keys, the same named values and plural forms in each message, every message
// of either language valid vue-i18n syntax (a stray "@", "{" or "|" would show as an error or a wrong plural), read by
// the one engine exactly as vue-i18n reads it in the renderer, and nothing left in English but names that read the
// same in both.
import { compile } from '@intlify/core-base';
import { createI18n } from 'vue-i18n';
import { describe, expect, it } from 'vitest';

import { CATALOGS, translator } from '../../../main/common/pure/i18n/index.ts';
import { appMessages as appEn } from '../../../main/common/pure/i18n/en/index.ts';
import { appMessages as appEs } from '../../../main/common/pure/i18n/es/index.ts';
import { messageProblem } from '../../../main/common/pure/i18n/translate.ts';
import { placeholders } from '../../../main/common/pure/message.ts';

type Tree = { readonly [key: string]: string | Tree };

function flat(node: string | Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else for (const [k, v] of Object.entries(node)) flat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const enMessages = flat(CATALOGS.en as unknown as Tree);
const esMessages = flat(CATALOGS.es as unknown as Tree);

// The plural forms of a message: its bars, less those written as a literal ({'|'}).
const forms = (m: string): number => m.replaceAll("{'|'}", '').split('|').length;

// Messages that read the same in Spanish: names, units and symbols.
const SAME_IN_BOTH = new Set([
  'app.name',
  // "Python · PyTorch": two names and a mark.
  'results.table.peer',
  // Slurm's commands, by name.
  'cli.batch.status.source.squeue',
  'cli.batch.status.source.sacct',
  // The Python libraries' own names.
  'labs.run.peer.torch',
  'labs.run.peer.numba',
  'labs.run.peer.transformers',
  'labs.run.peer.cuda-core',
  'app.liveRun.running',
  // "{n} min": a number and its unit.
  'classroom.duration.minutes',
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
  // A time rounded up, in units: "2 min", "1 h 3 min".
  'labs.catalog.time.minutes',
  'labs.catalog.time.hours',
  'results.chart.size.bytes',
  'results.chart.size.matrixN',
  'results.chart.breakEven.line',
  'results.compare.legend',
  'results.compare.ratios.ratio',
  'cli.labs.kernels',
  'labs.environment.versions.node',
  'labs.environment.versions.napi',
  // The course's own title for the preset's sizes.
  'labAbout.dtypes.presets.seed-003.label',
]);

// Every error of a message, not only the first: the compiler the app registers (main/common/pure/i18n/translate.ts), told
// to collect them.
function compileErrors(message: string): string[] {
  const errors: string[] = [];
  compile(message, { key: 'check', locale: 'en', onError: (e) => errors.push(e.message), warnHtmlMessage: false });
  return errors;
}

// A message made only of values, marks, numbers and names reads the same in both languages.
function hasWords(m: string): boolean {
  return /[a-záéíóúñ]{3}/.test(m.replace(/\{[^}]*\}/g, '').replace(/\b(cuBLAS|cublas|NVRTC|NVML|CUDA|GPU|CPU|GB\/s|GFLOP\/s|gpu-lab|csv|json)\b/g, ''));
}

describe('the catalogs in English and Spanish', () => {
  it('have the same keys', () => {
    expect([...esMessages.keys()].sort()).toEqual([...enMessages.keys()].sort());
    expect(enMessages.size).toBeGreaterThan(1500);
  });

  it.each([...enMessages.keys()])('%s has the same named values and plural forms in Spanish', (key) => {
    const english = enMessages.get(key) ?? '';
    const spanish = esMessages.get(key) ?? '';
    expect(placeholders(spanish), spanish).toEqual(placeholders(english));
    expect(forms(spanish), 'plural forms').toBe(forms(english));
  });

  it.each([...enMessages.entries(), ...esMessages.entries()])('%s compiles in vue-i18n', (_key, message) => {
    expect(compileErrors(message)).toEqual([]);
    expect(messageProblem(message)).toBeNull();
  });

  it('leaves nothing in English but names, units and marks', () => {
    const untranslated = [...enMessages.keys()].filter((k) => enMessages.get(k) === esMessages.get(k) && !SAME_IN_BOTH.has(k) && hasWords(enMessages.get(k) ?? ''));
    expect(untranslated).toEqual([]);
  });

  it('gives the renderer the app parts of the same catalogs', () => {
    for (const part of Object.keys(appEn) as (keyof typeof appEn)[]) {
      expect(appEn[part]).toBe(CATALOGS.en[part]);
      expect(appEs[part]).toBe(CATALOGS.es[part]);
    }
  });
});

describe('main reads every message as vue-i18n reads it in the renderer', () => {
  for (const locale of ['en', 'es'] as const) {
    const i18n = createI18n({ legacy: false, locale, warnHtmlMessage: false, missingWarn: false, messages: { [locale]: CATALOGS[locale] } });
    const ours = translator(locale);
    it.each([...(locale === 'en' ? enMessages : esMessages).keys()])(`${locale}: %s`, (key) => {
      const message = (locale === 'en' ? enMessages : esMessages).get(key) ?? '';
      const named = Object.fromEntries(placeholders(message).map((n, i) => [n, `‹${n} ${i}›`]));
      expect(ours(key, named)).toBe(i18n.global.t(key, named));
      for (const count of [0, 1, 2, 5]) expect(ours(key, { ...named, count }, count)).toBe(i18n.global.t(key, { ...named, count }, count));
    });
  }

  it('speaks Spanish with a Spanish plural, in the app, the CLI and the PDF alike', () => {
    const es = translator('es');
    expect(es('results.table.waivedOnce', { count: 3, reason: 'no hay GPU' }, 3)).toBe('Se han omitido 3 puntos, todos por el mismo motivo: no hay GPU.');
    expect(es('results.table.waivedOnce', { count: 1, reason: 'no hay GPU' }, 1)).toBe('Un punto se ha omitido: no hay GPU.');
    expect(es('cli.runs.points', { count: 1 })).toBe('1 punto');
    expect(es('cli.runs.points', { count: 2 })).toBe('2 puntos');
    expect(translator('en', 'cli')('runs.points', { count: 1 })).toBe('1 point');
  });
});
