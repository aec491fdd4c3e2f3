// How the class's numbers read on a student's page: a wait or a limit never reads as less than it is ("at most 2 min"
// holds), and each summary number is named by its series and what it measures, written in its unit, in English and
// Spanish, beside the class's smallest – largest.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { translator } from '../../../../main/common/pure/i18n/index.ts';
import type { LabDescriptor } from '../../../../main/common/lab-descriptor.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { durationText, metricRows } from '../../../../renderer/components/classroom/class-text.ts';

function tr(locale: 'en' | 'es'): (key: string, named?: Record<string, unknown>) => string {
  const t = translator(locale);
  return (key, named = {}) => t(key, named as Record<string, string | number>);
}

describe('a wait or a limit', () => {
  it('never reads as less than the seconds it stands for', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 86_400, noNaN: true }), (seconds) => {
        const text = durationText(seconds, tr('en'));
        const m = /^(\d+) (s|min)$/.exec(text);
        expect(m, text).not.toBeNull();
        const shown = Number(m?.[1]) * (m?.[2] === 'min' ? 60 : 1);
        expect(shown).toBeGreaterThanOrEqual(seconds);
        // And by less than a minute more.
        expect(shown - seconds).toBeLessThan(60);
      }),
    );
    expect(durationText(45.2, tr('es'))).toBe('46 s');
    expect(durationText(61, tr('es'))).toBe('2 min');
  });
});

describe('a run’s numbers beside the class’s', () => {
  const vector = labDescriptors('en').find((l) => l.id === 'vector-function') as LabDescriptor;
  const vectorEs = labDescriptors('es').find((l) => l.id === 'vector-function') as LabDescriptor;
  const metrics = [
    { key: 'cpu-single.ms', runs: 4, students: 3, min: 10.2, median: 17.9, max: 31.2, outsideSizes: 0 },
    { key: 'cpu-single.gbps', runs: 4, students: 3, min: 3.9, median: 6.7, max: 11.5, outsideSizes: 0 },
    { key: 'gpu-fused.ms', runs: 0, students: 0, min: null, median: null, max: null, outsideSizes: 0 },
  ];
  const summary = { 'cpu-single.ms': 10.39, 'cpu-single.gbps': 11.55, 'gpu-fused.ms': null };
  const known = (t: ReturnType<typeof translator>) => (key: string) => t(key, {}) !== key;

  it('names each by its series and quantity and writes it in its unit, leaving out numbers nobody has', () => {
    const rows = metricRows(metrics, summary, { lab: vector, t: tr('en'), known: known(translator('en')), locale: 'en' });
    expect(rows.map((r) => r.key)).toEqual(['cpu-single.ms', 'cpu-single.gbps']);
    const single = vector.series.find((x) => x.key === 'cpu-single')?.label ?? '';
    expect(rows[0]).toMatchObject({ label: `${single} · time`, yours: '10.39 ms', range: '10.2 ms – 31.2 ms', median: '17.9 ms', runs: 4, students: 3 });
    expect(rows[1]).toMatchObject({ label: `${single} · bandwidth`, yours: '11.55 GB/s', range: '3.9 GB/s – 11.5 GB/s' });
  });

  it('reads in Spanish, decimal commas and all', () => {
    const rows = metricRows(metrics, summary, { lab: vectorEs, t: tr('es'), known: known(translator('es')), locale: 'es' });
    const single = vectorEs.series.find((x) => x.key === 'cpu-single')?.label ?? '';
    expect(rows[0]).toMatchObject({ label: `${single} · tiempo`, yours: '10,39 ms', range: '10,2 ms – 31,2 ms' });
    expect(rows[1]?.label).toBe(`${single} · ancho de banda`);
  });

  it('keeps a number whose series and quantity it does not know, as it stands', () => {
    const rows = metricRows([{ key: 'add.weird.thing', runs: 1, students: 1, min: 3, median: 3, max: 3, outsideSizes: 0 }], { 'add.weird.thing': 3 }, { lab: vector, t: tr('en'), known: known(translator('en')), locale: 'en' });
    expect(rows[0]).toMatchObject({ label: 'add · weird · thing', yours: '3', range: '3 – 3' });
  });
});
