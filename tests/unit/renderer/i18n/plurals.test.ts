// Every count the app's pages write takes the form its number asks for, in English and in Spanish: "1 run", never
// "1 runs"; "1 ejecución", never "1 ejecuciones". Read through the renderer's vue-i18n, called as the pages call it
// (the count as the plural argument), and through the one function that builds a CPU's cores.
import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { createMemoryHistory, createRouter } from 'vue-router';

import type { DeviceSummary } from '../../../../main/common/devices.ts';
import type { Locale } from '../../../../main/common/pure/locale.ts';
import type { RunSummary } from '../../../../main/common/run-record.ts';
import { cpuFieldGroups } from '../../../../renderer/components/devices/device-fields.ts';
import CompareBar from '../../../../renderer/components/history/CompareBar.vue';
import RunStatusLine from '../../../../renderer/components/labs/RunStatusLine.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useLanguageStore } from '../../../../renderer/stores/language.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';

type Named = Record<string, string | number>;
const t = (key: string, named: Named, plural: number): string => i18n.global.t(key, named, plural);

function speak(locale: Locale): void {
  i18n.global.locale.value = locale;
}

afterEach(() => speak('en'));

// [key, named values for a count of n, the English for 1 and 2, the Spanish for 1 and 2]
const COUNTS: [string, (n: number) => Named, [string, string], [string, string]][] = [
  ['history.filters.count', (n) => ({ shown: n, total: n }), ['1 of 1 run', '2 of 2 runs'], ['1 de 1 ejecución', '2 de 2 ejecuciones']],
  ['history.run.points', (n) => ({ count: n }), ['1 point', '2 points'], ['1 punto', '2 puntos']],
  ['history.compare.picked', () => ({}), ['One of two runs picked:', 'Both runs picked:'], ['Elegida una de las dos ejecuciones:', 'Elegidas las dos ejecuciones:']],
  ['report.saved', (n) => ({ filename: 'a.pdf', pages: n }), ['Saved a.pdf (1 page).', 'Saved a.pdf (2 pages).'], ['Guardado a.pdf (1 página).', 'Guardado a.pdf (2 páginas).']],
  ['labs.results.count.ok', (n) => ({ count: n }), ['1 point measured', '2 points measured'], ['1 punto medido', '2 puntos medidos']],
  ['labs.results.count.waived', (n) => ({ count: n }), ['1 waived', '2 waived'], ['1 omitido', '2 omitidos']],
  ['labs.results.count.failed', (n) => ({ count: n }), ['1 failed', '2 failed'], ['1 fallido', '2 fallidos']],
  ['labs.results.count.cancelled', (n) => ({ count: n }), ['1 not reached', '2 not reached'], ['1 sin alcanzar', '2 sin alcanzar']],
  ['labs.progress.points', (n) => ({ done: n, total: n }), ['1 of 1 point', '2 of 2 points'], ['1 de 1 punto', '2 de 2 puntos']],
  ['devices.cpu.physicalCores', (n) => ({ count: n }), ['1 physical', '2 physical'], ['1 físico', '2 físicos']],
  ['devices.cpu.logicalCores', (n) => ({ count: n }), ['1 logical', '2 logical'], ['1 lógico', '2 lógicos']],
];

describe('counts in both languages', () => {
  it.each(COUNTS)('%s: one and two', (key, named, english, spanish) => {
    for (const [locale, [one, two]] of [['en', english], ['es', spanish]] as const) {
      speak(locale);
      expect([t(key, named(1), 1), t(key, named(2), 2)]).toEqual([one, two]);
    }
  });

  it('names a deleted run’s points as one or several, and a run with none', () => {
    const body = (n: number): string => t('history.confirm.body', { run: 'R', device: 'cpu', points: n }, n).split(',')[1] ?? '';
    expect([0, 1, 2].map(body)).toEqual([' which measured no point', ' with its one point', ' with its 2 points']);
    speak('es');
    expect([0, 1, 2].map(body)).toEqual([' que no midió ningún punto', ' con su único punto', ' con sus 2 puntos']);
  });

  it('says a CPU’s cores in the form each count takes', () => {
    const cpu = (physical: number, logical: number): DeviceSummary =>
      ({ id: 'cpu', kind: 'cpu', name: 'A CPU', memoryBytes: null, details: { physicalCores: physical, logicalCores: logical } }) as unknown as DeviceSummary;
    const cores = (locale: Locale, physical: number, logical: number): string | undefined => {
      speak(locale);
      const groups = cpuFieldGroups(cpu(physical, logical), 'OpenBLAS', { t: (k, named, plural) => i18n.global.t(k, (named ?? {}) as Named, plural ?? 1), locale });
      return groups[0]?.fields.find((f) => f.id === 'cores')?.value;
    };
    expect(cores('en', 1, 1)).toBe('1 physical, 1 logical');
    expect(cores('es', 1, 1)).toBe('1 físico, 1 lógico');
    expect(cores('es', 1, 2)).toBe('1 físico, 2 lógicos');
    expect(cores('es', 8, 16)).toBe('8 físicos, 16 lógicos');
  });
});

describe('the pages pass the count that picks the form', () => {
  const router = createRouter({ history: createMemoryHistory(), routes: [{ path: '/:any(.*)', component: { template: '<div />' } }] });
  const global = { plugins: [i18n, router] };

  it('counts a run’s points by how they ended: “1 punto medido, 4 omitidos”', () => {
    // The CPU-only matrix product: one CPU point measured, four GPU points waived.
    const { record } = fixtureRun('cpu-matmul');
    const counts = (): string => mount(RunStatusLine, { props: { record, live: false, standalone: true }, global }).get('.counts').text();
    expect(counts()).toBe('1 point measured, 4 waived, 0 failed, 0 not reached.');
    speak('es');
    expect(counts()).toBe('1 punto medido, 4 omitidos, 0 fallidos, 0 sin alcanzar.');
  });

  it('says one run picked or both', async () => {
    const run = (id: string): RunSummary => ({ id, lab: 'matmul', labTitle: 'Matrix product', device: 'cpu', status: 'completed', createdAt: '2026-11-23T07:47:20Z', finishedAt: null, points: 5, errorCode: null, params: {}, headline: null });
    // The history's words come through the language store, which sets vue-i18n's language.
    const pinia = createPinia();
    useLanguageStore(pinia).locale = 'es';
    await nextTick();
    const picked = (runs: RunSummary[]): string => mount(CompareBar, { props: { picked: runs, refusal: null }, global: { plugins: [i18n, router, pinia] } }).get('.picks p').text();
    expect(picked([run('a')])).toBe('Elegida una de las dos ejecuciones:');
    expect(picked([run('a'), run('b')])).toBe('Elegidas las dos ejecuciones:');
  });
});
