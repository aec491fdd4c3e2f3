// Property tests of how precisely the sentences and tables state their numbers, over generated runs, in English and in
// Spanish: a matrix size is never written with a fraction and a break-even never to more than two significant digits;
// "which operation gains most" is answered at every size, not at one; a time that mixes copies and kernels, or a
// clock stopped at the launch, has no rate and no share of a peak anywhere; a CPU rate above the measured memory
// bandwidth says where its arrays sat.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { speedupRange } from '../../../main/common/pure/claims.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';
import { formatBreakEven, formatCount } from '../../../main/common/pure/format.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { validateParams } from '../../../main/common/params.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Lab, PlannedPoint } from '../../../main/labs/lab.ts';
import { findingText, localizeDescriptor } from '../../../main/labs/lab-text.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { reportTranslate } from '../../../main/reports/report-context.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { LIGHT_CHART_THEME } from '../../../main/common/pure/charts/palette.ts';
import { resultRows } from '../../../main/common/pure/charts/result-rows.ts';
import { runChart } from '../../../main/common/pure/charts/run-chart.ts';
import { measuredPoint } from '../../../main/runs/point-result.ts';
import { CPU, GPU, WITH_GPU } from './synthetic.ts';

const LOCALES = ['en', 'es'] as const;

function lab(id: string): Lab {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

// A planned point measured with these samples, as the runner records it (its rates from its work, none where the
// plan says the time is not the work's alone).
function measured(p: PlannedPoint, samples: number[]): PointResult {
  return measuredPoint(p, { clock: p.clock, hostMs: samples, deviceMs: samples, executionsPerSample: 1, implementation: 'synthetic', threads: 2, verification: { method: 'full', checked: 1, total: 1, relativeError: 1e-7, tolerance: 1e-5, passed: true, mismatches: [] }, telemetry: null });
}

// Six to twelve samples within ±spread of a median (integers drawn and scaled: fast-check's doubles cluster at
// their bounds).
const shape = fc.record({ spread: fc.integer({ min: 0, max: 300 }), noise: fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 6, maxLength: 12 }) });
const around = (median: number, s: { spread: number; noise: number[] }): number[] => s.noise.map((u) => median * (1 + (s.spread / 1000) * (u / 1000)));

// Everything a run says in words: its findings, its chart's notes and its deliverable's answers and notes.
function everything(record: RunRecord, l: Lab, locale: Locale): string {
  const descriptor = localizeDescriptor(l.descriptor, locale);
  const t = reportTranslate(locale);
  return inReportLocale(locale, () => {
    const findings = record.findings.map((f) => findingText(f, locale));
    const chart = runChart(record, descriptor, { theme: LIGHT_CHART_THEME, t });
    const d = labDeliverable({ record, lab: descriptor, t });
    return [...findings, ...chart.notes, ...(d?.answers.flatMap((a) => [a.question, a.answer]) ?? []), ...(d?.tables.flatMap((x) => x.notes) ?? [])].join('\n');
  });
}

function runOf(l: Lab, params: ReturnType<typeof validateParams>, points: PointResult[], cpu: DeviceSummary = CPU): RunRecord {
  const a = l.analyze(points, params, GPU, cpu);
  return { lab: l.descriptor.id, points, params, summary: a.summary, findings: a.findings, environment: { devices: { devices: [cpu, GPU], cudaReason: null, blas: 'synthetic' }, versions: {} } } as unknown as RunRecord;
}

describe('a matrix size is written whole, and a break-even to two significant digits, in generated runs', () => {
  const l = lab('matmul-breakeven');
  // Small sizes among them, where a crossing near 100 once read "N = 99.1".
  const sizes = [16, 40, 64, 100, 160, 250, 500];
  const params = validateParams('matmul-breakeven', l.descriptor.parameters, { sizes });
  const planned = l.plan(params, WITH_GPU);

  it('in every sentence, chart note and answer, in both languages', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 10, max: 5000 }), { minLength: sizes.length, maxLength: sizes.length }), shape, (ratios, s) => {
        // The CPU's time grows as N³; the GPU's is the CPU's ÷ a speedup from 0.01 to 5, drawn per size.
        const ms = (p: PlannedPoint): number => {
          const cpu = ((p.x ?? 1) / 100) ** 3;
          return p.series === 'cpu' || p.series === 'torch-cpu' ? cpu : cpu / ((ratios[sizes.indexOf(p.x ?? 0)] ?? 1000) / 1000);
        };
        const record = runOf(l, params, planned.map((p) => measured(p, around(ms(p), s))));
        for (const locale of LOCALES) {
          const text = everything(record, l, locale).replace(/\s+/g, ' ');
          const [group, decimal] = locale === 'en' ? [',', '.'] : ['.', ','];
          for (const [, n] of text.matchAll(/\bN ?[=≈] ?(\d[\d.,]*\d|\d)/g)) expect(n?.split(group).join(''), text).not.toContain(decimal);
          const crossing = record.summary['gpu-transfers.breakEvenN'];
          // The crossing as the finding and the answers give it: two significant digits.
          if (typeof crossing === 'number') expect(text).toMatch(new RegExp(`N [=≈] ${inReportLocale(locale, () => formatBreakEven('matrix-n', crossing)).replace('.', '\\.')}\\b`));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('which operation gains most is answered over every size, in generated runs', () => {
  const l = lab('elementwise-breakeven');
  const params = validateParams('elementwise-breakeven', l.descriptor.parameters, { ops: ['add', 'exp'], minExponent: 2, maxExponent: 6 });
  const planned = l.plan(params, WITH_GPU);
  const sizes = [...new Set(planned.map((p) => p.x ?? 0))].sort((a, b) => a - b);

  it('names, for each operation, the sizes where its speedup range lies above the other’s, and no other', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 50, max: 40_000 }), { minLength: 2 * sizes.length, maxLength: 2 * sizes.length }), shape, (speedups, s) => {
        const ms = (p: PlannedPoint): number => {
          const cpu = (p.x ?? 1) * 1e-5;
          if (!p.series.endsWith('-gpu-resident')) return cpu;
          const i = sizes.indexOf(p.x ?? 0) + (p.series.startsWith('exp') ? sizes.length : 0);
          return cpu / ((speedups[i] ?? 1000) / 1000);
        };
        const record = runOf(l, params, planned.map((p) => measured(p, around(ms(p), s))));
        const range = { add: speedupRange(record.points, 'add-cpu', 'add-gpu-resident'), exp: speedupRange(record.points, 'exp-cpu', 'exp-gpu-resident') };
        const ahead = { add: [] as number[], exp: [] as number[] };
        for (const x of sizes) {
          const [a, e] = (['add', 'exp'] as const).map((op) => ({ low: range[op].low.y[range[op].low.x.indexOf(x)] ?? 0, high: range[op].high.y[range[op].high.x.indexOf(x)] ?? 0 }));
          if (a && e && a.low > e.high) ahead.add.push(x);
          if (a && e && e.low > a.high) ahead.exp.push(x);
        }
        for (const locale of LOCALES) {
          const d = inReportLocale(locale, () => labDeliverable({ record, lab: localizeDescriptor(l.descriptor, locale), t: reportTranslate(locale) }));
          const answer = d?.answers[1]?.answer ?? '';
          expect(answer).not.toMatch(/[{}]/);
          for (const op of ['add', 'exp'] as const) {
            const listed = inReportLocale(locale, () => ahead[op].map((x) => formatCount(x)).join(reportTranslate(locale)('pdf.deliverable.listSeparator')));
            if (ahead[op].length > 0) expect(answer, answer).toContain(`${listed} ${locale === 'en' ? 'elements' : 'elementos'}`);
            else expect(answer, answer).not.toMatch(new RegExp(`^${op}:|${op} (is clearly ahead|va claramente)`));
          }
          if (ahead.add.length === 0 && ahead.exp.length === 0) expect(answer).toMatch(locale === 'en' ? /^No operation clearly gains most/ : /^Ninguna operación gana claramente más/);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('a time that is not its work’s alone has no rate and no share of a peak, anywhere', () => {
  for (const [id, unrated] of [['timing-pitfalls', ['gpu-no-sync']], ['matmul', ['gpu-transfers']], ['vector-function', ['gpu-transfers']]] as const) {
    it(`${id}: ${unrated.join(', ')} in the table and in every sentence, in both languages`, () => {
      const l = lab(id);
      const params = validateParams(id, l.descriptor.parameters, {});
      const planned = l.plan(params, WITH_GPU);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 10_000 }), shape, (scale, s) => {
          const record = runOf(l, params, planned.map((p) => measured(p, around(scale / 100, s))));
          for (const locale of LOCALES) {
            const descriptor = localizeDescriptor(l.descriptor, locale);
            const rows = inReportLocale(locale, () => resultRows(record, descriptor, reportTranslate(locale)));
            for (const series of unrated) {
              for (const row of rows.filter((r) => r.series === series)) expect([row.rate, row.shareOfPeak]).toEqual(['—', '—']);
              const said = record.findings.filter((f) => JSON.stringify(f.message).includes(`.${series}"`)).map((f) => findingText(f, locale));
              for (const sentence of said) expect(sentence).not.toMatch(/[GT](FLOP|OP|B)\/s/);
            }
          }
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe('a CPU rate above the measured memory bandwidth says its arrays sat in the cache', () => {
  const l = lab('vector-function');
  const params = validateParams('vector-function', l.descriptor.parameters, {});
  const planned = l.plan(params, WITH_GPU);
  // 120 MB of arrays (5 M × 24 B) in a 300 MiB last-level cache, and 100 GB/s measured from main memory.
  const cpu: DeviceSummary = { ...CPU, peakMemoryGBps: 100, details: { logicalCores: 2, l3CacheBytes: 300 * 2 ** 20, peakMemorySource: 'measured' } };

  it('where and only where the rate passes it, in both languages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 6000 }), (micros) => {
        // The threads' loop at 120 MB ÷ its time: 20 to 400 GB/s; one thread ten times slower.
        const ms: Record<string, number> = { 'cpu-threads': micros / 1000, 'cpu-single': (10 * micros) / 1000 };
        const record = runOf(l, params, planned.map((p) => measured(p, around(ms[p.series] ?? 1, { spread: 0, noise: [0, 0, 0, 0, 0, 0] }))), cpu);
        const threads = record.points.find((p) => p.series === 'cpu-threads');
        const above = (threads?.gbps ?? 0) > 100;
        const f = record.findings.find((x) => x.id === 'threads');
        expect(f).toBeDefined();
        for (const locale of LOCALES) {
          const text = f ? findingText(f, locale) : '';
          expect(text.includes(locale === 'en' ? 'sit in the 300 MiB last-level cache' : 'caben en los 300 MiB de la caché de último nivel'), text).toBe(above);
          const answer = inReportLocale(locale, () => labDeliverable({ record, lab: localizeDescriptor(l.descriptor, locale), t: reportTranslate(locale) }))?.answers[3]?.answer ?? '';
          expect(answer.includes(locale === 'en' ? 'last-level cache' : 'caché de último nivel'), answer).toBe(above);
        }
      }),
      { numRuns: 100 },
    );
  });
});
