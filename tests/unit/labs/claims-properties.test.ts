// Property tests of the sentences that state a direction, a membership, a threshold or a trend: generated runs —
// equal, reversed, overlapping, noisy, few-sample — and, for each, a check that what the sentence claims is what the
// numbers show, in English and in Spanish. A sentence the numbers do not support fails here with the run that shows it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { DeviceSummary } from '../../../main/common/devices.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import { type Finding, type PointResult, type RunRecord } from '../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { validateParams } from '../../../main/common/params.ts';
import { summarize } from '../../../main/common/pure/statistics.ts';
import { AGREEMENT_STEPS, compareTimes, estimateOf, timeRatio, trendOf, withinSpread } from '../../../main/common/pure/claims.ts';
import { formatPercent, formatTimes } from '../../../main/common/pure/format.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Lab } from '../../../main/labs/lab.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { labDeliverable } from '../../../main/reports/deliverables/index.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { CPU, GPU, sampledPoint, WITH_GPU } from './synthetic.ts';

function lab(id: string): Lab {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

// Samples around a median: a spread (0 … 40 %) and a count (1 … 24), drawn so that runs come equal, reversed,
// overlapping, noisy or with too few samples to give an interval.
const samplesAround = (median: number) =>
  fc.record({ spread: fc.double({ min: 0, max: 0.4, noNaN: true }), count: fc.integer({ min: 1, max: 24 }), seed: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 24, maxLength: 24 }) }).map(({ spread, count, seed }) =>
    seed.slice(0, count).map((u) => median * (1 + spread * u)),
  );

function bothLanguages(f: Finding): void {
  const en = findingText(f, 'en');
  const es = findingText(f, 'es');
  expect(en).not.toMatch(/[{}]/);
  expect(es).not.toMatch(/[{}]/);
}

describe('timing-pitfalls says only what its numbers show', () => {
  const l = lab('timing-pitfalls');
  const params = validateParams('timing-pitfalls', l.descriptor.parameters, {});
  const planned = l.plan(params, WITH_GPU);
  const run = (ms: Record<string, number[]>): { points: PointResult[]; findings: Finding[] } => {
    const points = planned.map((p) => sampledPoint(p, ms[p.series] ?? [1, 1, 1, 1, 1, 1]));
    return { points, findings: l.analyze(points, params, GPU, CPU).findings };
  };

  it('calls a cold call within the warmed calls’ spread only when it lies between their fastest and slowest', () => {
    fc.assert(
      fc.property(samplesAround(4), fc.double({ min: 2, max: 12, noNaN: true }), (warm, cold) => {
        const { points, findings } = run({ 'gpu-warm': warm, 'gpu-cold': [cold] });
        const f = findings.find((x) => x.id === 'gpu-cold');
        const e = estimateOf(points.find((p) => p.series === 'gpu-warm'));
        if (!f || !e) return;
        bothLanguages(f);
        const key = f.message.key.split('.').at(-1);
        if (key === 'coldWithin') expect(cold >= e.min && cold <= e.max).toBe(true);
        else if (key === 'coldBelow') expect(cold).toBeLessThan(e.min);
        else expect(cold).toBeGreaterThan(e.max);
        // The course deliverable's answer draws the same line, in both languages.
        const record = { lab: 'timing-pitfalls', points, summary: {}, findings, params } as unknown as RunRecord;
        for (const locale of ['en', 'es'] as const) {
          const answer = labDeliverable({ record, lab: l.descriptor, t: translator(locale) })?.answers[2]?.answer ?? '';
          expect(answer).not.toMatch(/[{}]/);
          const within = locale === 'en' ? /GPU the cold first call \([^)]*\) is within/ : /GPU, la primera llamada en frío \([^)]*\) queda dentro/;
          const below = locale === 'en' ? /GPU the cold first call \([^)]*\) was faster than every/ : /GPU, la primera llamada en frío \([^)]*\) fue más rápida/;
          expect(within.test(answer), answer).toBe(cold >= e.min && cold <= e.max);
          expect(below.test(answer), answer).toBe(cold < e.min);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('says all threads are faster, or slower, only where the two medians’ intervals separate', () => {
    fc.assert(
      fc.property(samplesAround(100), fc.double({ min: 0.3, max: 3, noNaN: true }), samplesAround(1), (one, factor, shape) => {
        const all = shape.map((s) => s * 100 * factor);
        const { points, findings } = run({ 'cpu-one-thread': one, 'cpu-all-threads': all });
        const f = findings.find((x) => x.id === 'threads');
        const a = estimateOf(points.find((p) => p.series === 'cpu-all-threads'));
        const o = estimateOf(points.find((p) => p.series === 'cpu-one-thread'));
        if (!f || !a || !o) return;
        bothLanguages(f);
        const key = f.message.key.split('.').at(-1);
        if (key === 'threads' || key === 'threadsBeyond') expect(a.high).toBeLessThan(o.low);
        else if (key === 'threadsSlower') expect(a.low).toBeGreaterThan(o.high);
        else expect(compareTimes(a, o)).toBe('indistinguishable');
        // A gain beyond the threads used is never stated as what threads buy.
        if (key === 'threads') expect(timeRatio(a, o).low).toBeLessThanOrEqual(2);
        // The course deliverable's answer makes the same claim as the finding, in both languages.
        const record = { lab: 'timing-pitfalls', points, summary: {}, findings, params } as unknown as RunRecord;
        const order = compareTimes(a, o);
        for (const locale of ['en', 'es'] as const) {
          const answer = labDeliverable({ record, lab: l.descriptor, t: translator(locale) })?.answers[1]?.answer ?? '';
          expect(answer).not.toMatch(/[{}]/);
          const faster = locale === 'en' ? / faster\. A GPU compared with one CPU thread looks/ : / más rápido\. Una GPU comparada con un solo hilo/;
          const slower = locale === 'en' ? /all of them were slower/ : /con todos fue más lento/;
          const apart = locale === 'en' ? /cannot tell them apart/ : /no permite distinguirlos/;
          expect(faster.test(answer), answer).toBe(order === 'faster');
          expect(slower.test(answer), answer).toBe(order === 'slower');
          expect(apart.test(answer), answer).toBe(order === 'indistinguishable');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the matmul break-even deliverable says only what its numbers show', () => {
  const l = lab('matmul-breakeven');
  const sizes = [50, 100, 200, 500, 1000];
  const params = validateParams('matmul-breakeven', l.descriptor.parameters, { sizes });
  const planned = l.plan(params, WITH_GPU);

  it('answers "yes, small matrices lose" only where every small size is slower and the crossing is not below the limit; the gap’s direction follows the measured ratios', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.05, max: 20, noNaN: true }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.double({ min: 1.01, max: 10, noNaN: true }), { minLength: 5, maxLength: 5 }),
        samplesAround(1),
        (gpuOverCpu, copiesOverResident, shape) => {
          const ms: Record<string, number> = {};
          sizes.forEach((n, i) => {
            ms[`cpu@${n}`] = n / 50;
            const withCopies = (n / 50) * (gpuOverCpu[i] ?? 1);
            ms[`gpu-transfers@${n}`] = withCopies;
            ms[`gpu-resident@${n}`] = withCopies / (copiesOverResident[i] ?? 2);
          });
          const points = planned.map((p) => sampledPoint(p, shape.map((s) => s * (ms[p.key] ?? 1))));
          const analysis = l.analyze(points, params, GPU, CPU);
          const record = { lab: 'matmul-breakeven', points, summary: analysis.summary, findings: analysis.findings, params } as unknown as RunRecord;
          for (const locale of ['en', 'es'] as const) {
            const d = labDeliverable({ record, lab: l.descriptor, t: translator(locale) });
            const small = d?.answers[1]?.answer ?? '';
            const gap = d?.answers[2]?.answer ?? '';
            expect(small).not.toMatch(/[{}]/);
            // Read against GPU Lab's CPU, the only CPU series of a run without the Python peers.
            const yes = locale === 'en' ? /GPU with transfers: yes, under/ : /«GPU with transfers»: sí, por debajo/;
            if (yes.test(small)) {
              for (const n of sizes.filter((x) => x < 500)) {
                const g = estimateOf(points.find((p) => p.key === `gpu-transfers@${n}`));
                const c = estimateOf(points.find((p) => p.key === `cpu@${n}`));
                if (g && c) expect(compareTimes(g, c), `N = ${n}`).toBe('slower');
              }
              const crossing = analysis.summary['gpu-transfers.breakEvenN'];
              if (typeof crossing === 'number') expect(crossing).toBeGreaterThanOrEqual(500);
            }
            const ratios = sizes.flatMap((n) => {
              const w = estimateOf(points.find((p) => p.key === `gpu-transfers@${n}`));
              const r = estimateOf(points.find((p) => p.key === `gpu-resident@${n}`));
              return w && r ? [timeRatio(r, w)] : [];
            });
            const trend = trendOf(ratios);
            const says = locale === 'en' ? { grows: /weigh more as N grows/, shrinks: /weigh less as N grows/ } : { grows: /pesan más al crecer N/, shrinks: /pesan menos al crecer N/ };
            if (says.grows.test(gap)) expect(trend).toBe('grows');
            if (says.shrinks.test(gap)) expect(trend).toBe('shrinks');
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the elementwise break-even gives the range its crossing can lie in, and the range holds it', () => {
  const l = lab('elementwise-breakeven');
  const params = validateParams('elementwise-breakeven', l.descriptor.parameters, { ops: ['add'], minExponent: 2, maxExponent: 6 });
  const planned = l.plan(params, WITH_GPU);
  const sizes = [...new Set(planned.map((p) => p.x ?? 0))].sort((a, b) => a - b);

  it('in generated runs, in both languages', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.05, max: 40, noNaN: true }), { minLength: sizes.length, maxLength: sizes.length }), samplesAround(1), (speedups, shape) => {
        const ms = (p: (typeof planned)[number]): number => {
          const cpu = (p.x ?? 1) * 1e-5;
          const i = sizes.indexOf(p.x ?? 0);
          return p.series === 'add-cpu' ? cpu : cpu / (speedups[i] ?? 1);
        };
        const points = planned.map((p) => sampledPoint(p, shape.map((s) => s * ms(p))));
        const a = l.analyze(points, params, GPU, CPU);
        for (const path of ['gpu-transfers', 'gpu-resident']) {
          const size = a.summary[`add.${path}.breakEvenSize`];
          const low = a.summary[`add.${path}.breakEvenSizeLow`];
          const high = a.summary[`add.${path}.breakEvenSizeHigh`];
          if (typeof size === 'number' && typeof low === 'number') expect(low).toBeLessThanOrEqual(size * (1 + 1e-9));
          if (typeof size === 'number' && typeof high === 'number') expect(high).toBeGreaterThanOrEqual(size * (1 - 1e-9));
          const f = a.findings.find((x) => x.id === `add-${path}-break-even`);
          if (!f) continue;
          bothLanguages(f);
          const ranged = f.message.key.endsWith('betweenRange');
          // A range is said only with both of its ends.
          if (ranged) expect(typeof low === 'number' && typeof high === 'number').toBe(true);
          expect(findingText(f, 'es').includes('en algún punto entre')).toBe(ranged);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('the claims themselves', () => {
  it('withinSpread is the samples’ range, nothing wider', () => {
    fc.assert(
      fc.property(samplesAround(10), fc.double({ min: 0, max: 30, noNaN: true }), (samples, x) => {
        const e = estimateOf({ status: 'ok', stats: summarize(samples), clock: 'host', hostMs: samples, deviceMs: null } as unknown as PointResult);
        if (!e) return;
        expect(withinSpread(x, e)).toBe(x >= Math.min(...samples) && x <= Math.max(...samples));
      }),
    );
  });
});

describe('the recorded runs no longer say what their numbers contradict', () => {
  const read = (name: string): RunRecord => withCurrentFindings(STORED_RECORD.parse(JSON.parse(readFileSync(join(import.meta.dirname, `../../fixtures/runs/${name}.json`), 'utf8'))));

  it('H100 matmul-breakeven: small matrices lose only up to the crossing (≈ 330), not "under N = 500"', () => {
    const record = read('h100-matmul-breakeven');
    const crossing = record.summary['gpu-transfers.breakEvenN'];
    expect(crossing).toBeGreaterThan(200);
    expect(crossing).toBeLessThan(500);
    for (const locale of ['en', 'es'] as const) {
      const d = labDeliverable({ record, lab: lab('matmul-breakeven').descriptor, t: translator(locale) });
      const small = d?.answers[1]?.answer ?? '';
      expect(small).not.toMatch(/(yes|sí), (under|por debajo)/);
      expect(small).toMatch(locale === 'en' ? /GPU with transfers: only up to about N = 3\d\d, not up to 500/ : /«GPU with transfers»: solo hasta N ≈ 3\d\d, no hasta 500/);
      // The gap is judged on the measured ratios (2.80× at N = 100, 6.41× at 5000, not in one direction between), not
      // on the theory of N² copies against N³ work: it never says the copies' weight shrinks.
      const gap = d?.answers[2]?.answer ?? '';
      expect(gap).not.toMatch(/N²|weigh less|pesan menos/);
      expect(gap).toMatch(locale === 'en' ? /rises and falls across the sizes measured/ : /sube y baja entre los tamaños medidos/);
    }
  });

  it('H100 matmul-breakeven: the crossing comes with the range the medians allow, which holds it and spans less than 2×', () => {
    const record = read('h100-matmul-breakeven');
    const n = record.summary['gpu-transfers.breakEvenN'] ?? 0;
    const low = record.summary['gpu-transfers.breakEvenNLow'] ?? 0;
    const high = record.summary['gpu-transfers.breakEvenNHigh'] ?? 0;
    expect(low).toBeLessThanOrEqual(n);
    expect(high).toBeGreaterThanOrEqual(n);
    expect(high / low).toBeLessThan(2);
    const f = record.findings.find((x) => x.id === 'gpu-transfers-break-even');
    expect(f && findingText(f, 'en')).toMatch(/^The GPU with transfers overtakes GPU Lab’s CPU BLAS \(OpenBLAS 0\.3\.26\) from about N = 3\d\d \(somewhere between N = \d+ and N = \d+, within the medians' uncertainty\)\.$/);
  });

  it('timing-pitfalls: no cold call is "within the spread" unless it lies between the warmed calls’ extremes', () => {
    for (const name of ['h100-timing-pitfalls', 'cpu-timing-pitfalls']) {
      const record = read(name);
      for (const id of ['gpu-cold', 'cpu-cold'] as const) {
        const f = record.findings.find((x) => x.id === id);
        const cold = record.points.find((p) => p.series === id)?.stats?.median;
        const warm = estimateOf(record.points.find((p) => p.series === (id === 'gpu-cold' ? 'gpu-warm' : 'cpu-warm')));
        if (!f || cold === undefined || !warm) continue;
        if (f.message.key.endsWith('coldWithin')) expect(withinSpread(cold, warm), `${name} ${id}`).toBe(true);
      }
    }
  });

  it('H100 timing-pitfalls deliverable: the cold GPU call (375 µs) is not "within" warmed calls that reach 356 µs at most', () => {
    const record = read('h100-timing-pitfalls');
    const answer = labDeliverable({ record, lab: lab('timing-pitfalls').descriptor, t: translator('en') })?.answers[2]?.answer ?? '';
    expect(answer).toContain('On the GPU the cold first call took 375.1 µs against 354.5 µs warmed');
    expect(answer).not.toContain('within');
  });
});

describe('a cause is said only where the run measures what supports it', () => {
  const l = lab('dtypes');
  const params = validateParams('dtypes', l.descriptor.parameters, {});
  const planned = l.plan(params, WITH_GPU);
  const cause = (fp64OverFp32: number, cpu: DeviceSummary): boolean => {
    const points = planned.map((p) => sampledPoint(p, [1, 1, 1, 1, 1, 1].map((v) => v * (p.key === 'cpu-fp64' ? fp64OverFp32 : 1))));
    const f = l.analyze(points, params, GPU, cpu).findings.find((x) => x.id === 'cpu-fp64');
    return JSON.stringify(f?.message).includes('cpuSimd');
  };
  // A CPU with estimated peaks: 500 GFLOP/s fp64 over 50 GB/s, a ridge point of 10 FLOPs per byte; an N = 4096 GEMM
  // does about 680 per byte.
  const withPeaks = { ...CPU, peakGflopsFp64: 500, peakMemoryGBps: 50 };

  it('names SIMD width for an fp32/fp64 ratio near 2 on a compute-bound product, and not otherwise', () => {
    expect(cause(2, withPeaks)).toBe(true);
    expect(cause(2.7, withPeaks)).toBe(false);
    expect(cause(1.2, withPeaks)).toBe(false);
    // Without the CPU's peaks, nothing shows the product is compute-bound: no cause.
    expect(cause(2, CPU)).toBe(false);
    // A ridge point above the product's intensity: memory-bound, so register width is not the reason.
    expect(cause(2, { ...CPU, peakGflopsFp64: 500_000, peakMemoryGBps: 1 })).toBe(false);
  });
});

describe('matmul says which of cuBLAS and the tiled kernel is faster only where their intervals separate', () => {
  const l = lab('matmul');
  const params = validateParams('matmul', l.descriptor.parameters, {});
  const planned = l.plan(params, WITH_GPU);

  it('in generated runs, in both languages', () => {
    fc.assert(
      fc.property(samplesAround(15), fc.double({ min: 0.7, max: 1.5, noNaN: true }), samplesAround(1), (cublas, factor, shape) => {
        const tiled = shape.map((s) => s * 15 * factor);
        const points = planned.map((p) => sampledPoint(p, p.series === 'gpu-cublas' ? cublas : p.series === 'gpu-tiled' ? tiled : [5, 5, 5, 5, 5, 5]));
        const f = l.analyze(points, params, GPU, CPU).findings.find((x) => x.id === 'library');
        const c = estimateOf(points.find((p) => p.series === 'gpu-cublas'));
        const ti = estimateOf(points.find((p) => p.series === 'gpu-tiled'));
        if (!f || !c || !ti) return;
        bothLanguages(f);
        const key = f.message.key.split('.').at(-1);
        const order = compareTimes(c, ti);
        if (key === 'libraryLevel') expect(order).toBe('indistinguishable');
        else if (key === 'tiledFaster') expect(order).toBe('slower');
        else expect(order).toBe('faster');
        // The deliverable's "how close do the hand-written kernels come to cuBLAS?" makes the same claim.
        const record = { lab: 'matmul', points, summary: {}, findings: [f], params } as unknown as RunRecord;
        for (const locale of ['en', 'es'] as const) {
          const answer = labDeliverable({ record, lab: l.descriptor, t: translator(locale) })?.answers[2]?.answer ?? '';
          const claim = {
            faster: locale === 'en' ? /\(cuBLAS is [^)]* faster\)/ : /\(cuBLAS es [^)]* más rápido\)/,
            slower: locale === 'en' ? /^The tiled kernel takes [^,]*, faster than cuBLAS/ : /^El kernel con teselas tarda [^,]*, menos que/,
            indistinguishable: locale === 'en' ? /cannot tell them apart/ : /no permite distinguirlos/,
          }[order];
          expect(answer, answer).toMatch(claim);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('vector-function says all threads are faster or slower only where the intervals separate', () => {
  const l = lab('vector-function');
  const params = validateParams('vector-function', l.descriptor.parameters, {});
  const planned = l.plan(params, WITH_GPU);

  it('answers what fusion gains, and whether the GPU is worth it with the copies, only where the intervals separate', () => {
    fc.assert(
      fc.property(samplesAround(0.1), fc.double({ min: 0.5, max: 2, noNaN: true }), samplesAround(1), fc.double({ min: 0.3, max: 3, noNaN: true }), (unfused, factor, shape, copiesFactor) => {
        const fused = shape.map((x) => x * 0.1 * factor);
        const threads = [2, 2, 2, 2, 2, 2, 2, 2];
        const copies = shape.map((x) => x * 2 * copiesFactor);
        const ms: Record<string, number[]> = { 'gpu-unfused': unfused, 'gpu-fused': fused, 'cpu-threads': threads, 'gpu-transfers': copies, 'cpu-single': [8, 8, 8, 8, 8, 8] };
        const points = planned.map((p) => sampledPoint(p, ms[p.series] ?? [5, 5, 5, 5, 5, 5]));
        const est = (series: string) => estimateOf(points.find((p) => p.series === series));
        const [u, fz, th, cp] = [est('gpu-unfused'), est('gpu-fused'), est('cpu-threads'), est('gpu-transfers')];
        if (!u || !fz || !th || !cp) return;
        const record = { lab: 'vector-function', points, summary: {}, findings: [], params, environment: { devices: null } } as unknown as RunRecord;
        for (const locale of ['en', 'es'] as const) {
          const answers = labDeliverable({ record, lab: l.descriptor, t: translator(locale) })?.answers ?? [];
          const fusion = answers[2]?.answer ?? '';
          const fusionStart = { faster: locale === 'en' ? 'One fused kernel takes' : 'Un solo kernel fusionado tarda', slower: locale === 'en' ? 'Not here:' : 'Aquí no:', indistinguishable: locale === 'en' ? 'This run cannot tell them apart' : 'Esta ejecución no permite distinguirlos' }[compareTimes(fz, u)];
          expect(fusion.startsWith(fusionStart), fusion).toBe(true);
          // Without the Python peers, against GPU Lab's loop on one core and, beside it, on every thread: each sentence
          // names its CPU and says what the intervals show against it.
          const worth = answers[4]?.answer ?? '';
          const single = est('cpu-single');
          if (!single) return;
          // The descriptor's labels are English here; the sentence around them is the locale's.
          const own = (label: string): string => (locale === 'en' ? `GPU Lab’s ${label}` : `la serie de GPU Lab «${label}»`);
          for (const [name, cpu] of [[own('CPU, one thread'), single], [own('CPU, all threads'), th]] as const) {
            const start = worth.indexOf(`${locale === 'en' ? 'Against' : 'Frente a'} ${name},`);
            expect(start, worth).toBeGreaterThanOrEqual(0);
            const sentence = worth.slice(start).split(/(?<=\.) (?=Against|Frente)/)[0] ?? '';
            const withCopies = compareTimes(cp, cpu);
            if (withCopies === 'faster') expect(sentence, sentence).toMatch(locale === 'en' ? /wins even with the copies/ : /gana incluso con las copias/);
            if (withCopies === 'indistinguishable') expect(sentence, sentence).toMatch(locale === 'en' ? /this run cannot settle it/ : /esta ejecución no permite decidirlo/);
            // "The CPU is faster" for data on the host only where the copies' interval lies above that CPU's.
            if (/the CPU is faster|la CPU es más rápida/.test(sentence)) expect(withCopies).toBe('slower');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('in generated runs, in both languages', () => {
    fc.assert(
      fc.property(samplesAround(20), fc.double({ min: 0.3, max: 1.6, noNaN: true }), samplesAround(1), (one, factor, shape) => {
        const all = shape.map((s) => s * 20 * factor);
        const points = planned.map((p) => sampledPoint(p, p.series === 'cpu-single' ? one : p.series === 'cpu-threads' ? all : [5, 5, 5, 5, 5, 5]));
        const f = l.analyze(points, params, GPU, CPU).findings.find((x) => x.id === 'threads');
        const o = estimateOf(points.find((p) => p.series === 'cpu-single'));
        const a = estimateOf(points.find((p) => p.series === 'cpu-threads'));
        if (!f || !o || !a) return;
        bothLanguages(f);
        const key = f.message.key.split('.').at(-1);
        const order = compareTimes(a, o);
        expect(order).toBe(key === 'threadsScale' ? 'faster' : key === 'threadsSlower' ? 'slower' : 'indistinguishable');
        // The deliverable's "does the CPU loop gain from every thread?" answers as the finding does.
        const record = { lab: 'vector-function', points, summary: {}, findings: [f], params, environment: { devices: null } } as unknown as RunRecord;
        for (const locale of ['en', 'es'] as const) {
          const answer = labDeliverable({ record, lab: l.descriptor, t: translator(locale) })?.answers[3]?.answer ?? '';
          expect(answer).not.toMatch(/[{}]/);
          const start = { faster: locale === 'en' ? 'Yes:' : 'Sí:', slower: 'No:', indistinguishable: locale === 'en' ? 'This run cannot tell:' : 'Esta ejecución no permite decirlo:' }[order];
          expect(answer.startsWith(start), answer).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// The Python peers: a report in which every library is there, so that every peer series is planned.
const EVERY_PEER = {
  asked: ['numpy', 'torch', 'cupy', 'numba'] as const,
  report: {
    interpreter: 'python3',
    available: true as const,
    probe: {
      python: '3.12.3',
      executable: '/usr/bin/python3',
      libraries: Object.fromEntries(['numpy', 'torch', 'cupy', 'numba'].map((l) => [l, { found: true as const, version: '1.0', cudaAvailable: true, devices: ['GPU'] }])),
    },
  },
};

describe('a Python peer is said to agree with GPU Lab only where the intervals allow it, and flagged only where they rule it out', () => {
  // `by`: the peer and ours are whole series (a sweep's every size measured alike), or single points by key (dtypes);
  // `within`: the margin the lab holds the two to (10 % unless said).
  const cases: { lab: string; peer: string; ours: string; median: number; by?: 'key'; within?: number }[] = [
    { lab: 'matmul', peer: 'torch-resident', ours: 'gpu-cublas', median: 15 },
    { lab: 'matmul', peer: 'numpy-matmul', ours: 'cpu-blas', median: 600 },
    { lab: 'vector-function', peer: 'cupy-fused', ours: 'gpu-fused', median: 0.03 },
    { lab: 'vector-function', peer: 'numba-njit', ours: 'cpu-single', median: 10 },
    { lab: 'transfer', peer: 'torch-h2d-pinned', ours: 'h2d-pinned-sync', median: 20, within: 0.03 },
    { lab: 'transfer', peer: 'torch-d2h-pinned', ours: 'd2h-pinned-sync', median: 20, within: 0.03 },
    { lab: 'transfer', peer: 'torch-h2d-pageable', ours: 'h2d-pageable-sync', median: 150 },
    { lab: 'dtypes', peer: 'torch-fp16', ours: 'gpu-fp16', median: 0.2, by: 'key' },
    { lab: 'elementwise-breakeven', peer: 'add-torch-resident', ours: 'add-gpu-resident', median: 0.4 },
    { lab: 'matmul-breakeven', peer: 'torch-resident', ours: 'gpu-resident', median: 0.35 },
  ];
  for (const c of cases) {
    it(`${c.lab}: ${c.peer} against ${c.ours}, in generated runs, in both languages`, () => {
      const l = lab(c.lab);
      const params = validateParams(c.lab, l.descriptor.parameters, {});
      const planned = l.plan(params, { ...WITH_GPU, peers: { asked: [...EVERY_PEER.asked], report: EVERY_PEER.report } });
      const of = (p: { series: string; key: string }): string => (c.by === 'key' ? p.key : p.series);
      expect(planned.some((p) => of(p) === c.peer && p.measurement)).toBe(true);
      const within = c.within ?? 0.1;
      fc.assert(
        fc.property(samplesAround(c.median), fc.double({ min: 0.7, max: 1.5, noNaN: true }), samplesAround(1), (ours, factor, shape) => {
          const peer = shape.map((s) => s * c.median * factor);
          const points = planned.map((p) => sampledPoint(p, of(p) === c.ours ? ours : of(p) === c.peer ? peer : [5, 5, 5, 5, 5, 5]));
          const f = l.analyze(points, params, GPU, CPU).findings.find((x) => x.id === `${c.peer}-agreement`);
          const eo = estimateOf(points.find((p) => of(p) === c.ours));
          const ep = estimateOf(points.find((p) => of(p) === c.peer));
          if (!eo || !ep) return;
          expect(f).toBeDefined();
          if (!f) return;
          bothLanguages(f);
          const r = timeRatio(eo, ep);
          const order = compareTimes(ep, eo);
          const key = f.message.key.split('.').at(-1) ?? '';
          const en = findingText(f, 'en');
          const es = findingText(f, 'es');
          const reach = Math.max(1 - r.low, r.high - 1);
          if (key === 'agree') {
            // Agreement only where the intervals overlap, within the margin said, which is the closest step that holds
            // the whole range, and never wider than the lab's.
            expect(order).toBe('indistinguishable');
            const said = Number(/agree within (\d+) %/.exec(en)?.[1]);
            expect(said / 100).toBeLessThanOrEqual(within + 1e-9);
            expect(reach).toBeLessThanOrEqual(said / 100 + 1e-9);
            const closer = AGREEMENT_STEPS.filter((step) => step < said / 100);
            for (const step of closer) expect(reach).toBeGreaterThan(step);
            expect(es).toContain(`margen del ${said} %`);
          } else if (key === 'unclear') {
            expect(order).toBe('indistinguishable');
            expect(reach).toBeGreaterThan(within);
            expect(en).toContain(`within ${Math.round(within * 100)} %`);
          } else {
            // A difference wherever the intervals separate, in the direction they separate, with its size.
            expect(order).not.toBe('indistinguishable');
            const faster = /^(faster|lessTime)/.test(key);
            expect(faster ? 'faster' : 'slower').toBe(order);
            if (key.startsWith('lessTime') || key.startsWith('moreTime')) {
              const [least, most] = faster ? [1 - r.high, 1 - r.low] : [r.low - 1, r.high - 1];
              expect(en).toContain(`${formatPercent(least, 'en')} to ${formatPercent(most, 'en')}`);
              expect(es).toContain(`entre un ${formatPercent(least, 'es')} y un ${formatPercent(most, 'es')}`);
              expect(key.endsWith('Small')).toBe(reach <= within);
            } else {
              expect(r.low < 0.5 || r.high > 1.5).toBe(true);
              expect(en).toContain(`${formatTimes(r.low, 'en')} to ${formatTimes(r.high, 'en')}`);
            }
          }
          expect(f.tone).toBe(key === 'agree' || (order !== 'indistinguishable' && reach <= within) ? 'info' : 'warning');
        }),
        { numRuns: 200 },
      );
    });
  }

  it('timing-pitfalls: PyTorch without a synchronise, and time.time() against events, are said only as their intervals fall', () => {
    const l = lab('timing-pitfalls');
    const params = validateParams('timing-pitfalls', l.descriptor.parameters, {});
    const planned = l.plan(params, { ...WITH_GPU, peers: { asked: ['torch'], report: EVERY_PEER.report } });
    fc.assert(
      fc.property(samplesAround(0.4), fc.double({ min: 0.05, max: 2, noNaN: true }), samplesAround(1), fc.double({ min: 0.8, max: 1.3, noNaN: true }), samplesAround(1), (events, noSync, shapeA, timeTime, shapeB) => {
        const series: Record<string, number[]> = {
          'torch-events': events,
          'torch-no-sync': shapeA.map((s) => s * 0.4 * noSync),
          'torch-time-time': shapeB.map((s) => s * 0.4 * timeTime),
        };
        const points = planned.map((p) => sampledPoint(p, series[p.series] ?? [1, 1, 1, 1, 1, 1]));
        const findings = l.analyze(points, params, GPU, CPU).findings;
        const ee = estimateOf(points.find((p) => p.series === 'torch-events'));
        for (const [id, wrong] of [['torch-sync', 'torch-no-sync'], ['torch-time', 'torch-time-time']] as const) {
          const ew = estimateOf(points.find((p) => p.series === wrong));
          const f = findings.find((x) => x.id === id);
          if (!ee || !ew) {
            expect(f).toBeUndefined();
            continue;
          }
          expect(f).toBeDefined();
          if (!f) continue;
          bothLanguages(f);
          const key = f.message.key.split('.').at(-1);
          const order = compareTimes(ew, ee);
          if (id === 'torch-sync') expect(key).toBe(order === 'faster' ? 'torchSync' : 'torchSyncUnclear');
          else expect(key).toBe(order === 'slower' ? 'torchTime' : order === 'faster' ? 'torchTimeBelow' : 'torchTimeAgree');
        }
      }),
      { numRuns: 300 },
    );
  });
  it('vector-function: NumPy is said slower or faster than the one-thread loop only where the intervals separate', () => {
    const l = lab('vector-function');
    const params = validateParams('vector-function', l.descriptor.parameters, {});
    const planned = l.plan(params, { ...WITH_GPU, peers: { asked: [...EVERY_PEER.asked], report: EVERY_PEER.report } });
    fc.assert(
      fc.property(samplesAround(10), fc.double({ min: 0.5, max: 6, noNaN: true }), samplesAround(1), (one, factor, shape) => {
        const numpy = shape.map((s) => s * 10 * factor);
        const points = planned.map((p) => sampledPoint(p, p.series === 'cpu-single' ? one : p.series === 'numpy-notebook' ? numpy : [5, 5, 5, 5, 5, 5]));
        const f = l.analyze(points, params, GPU, CPU).findings.find((x) => x.id === 'numpy-vs-loop');
        const e1 = estimateOf(points.find((p) => p.series === 'cpu-single'));
        const en = estimateOf(points.find((p) => p.series === 'numpy-notebook'));
        if (!f || !e1 || !en) return;
        bothLanguages(f);
        const key = f.message.key.split('.').at(-1);
        const order = compareTimes(en, e1);
        expect(key).toBe(order === 'slower' ? 'numpySlower' : order === 'faster' ? 'numpyFaster' : 'numpyLevel');
      }),
      { numRuns: 300 },
    );
  });
});
