// The y axis holds everything a chart draws (bars, medians, bands, whiskers, the values written over bars, reference
// lines) and a sweep's x axis every size and break-even line, on linear and log axes, with room above the largest
// value; a log axis never reaches 0. A property over generated runs of every lab, live and ended, with GPU and
// without, two runs compared, and kernel runs: what is drawn is read from the configuration as Chart.js gets it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { KernelRunResult, Throughput } from '../../../../main/common/playground.ts';
import type { RunRecord } from '../../../../main/common/run-record.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import type { PlannedPoint } from '../../../../main/labs/lab.ts';
import { HEADROOM, linearRange, logRange } from '../../../../main/common/pure/charts/axis-range.ts';
import type { RunChart } from '../../../../main/common/pure/charts/chart-common.ts';
import { compareChart } from '../../../../main/common/pure/charts/compare-chart.ts';
import { kernelRunChart } from '../../../../main/common/pure/charts/playground-chart.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { mulberry32 } from '../../seeded-random.ts';
import { saxpyResult } from '../playground/synthetic-kernel-run.ts';
import { drawnValues, scaleBounds, valueAxes } from './config-access.ts';
import { failed, fixtureRun, inputs, syntheticRun, withPoint } from './synthetic-runs.ts';

const logUniform = (r: () => number, lo: number, hi: number) => 10 ** (Math.log10(lo) + r() * (Math.log10(hi) - Math.log10(lo)));

// A lab's run on a generated machine: each series a fixed overhead plus its work at its own rate (so that lines cross
// and break-evens fall between sizes), each point's median off by up to ×2, its samples spread by up to ×3 with now
// and then one slow outlier (a 93 ms sample among 50 ms ones), some points failed.
function generatedRun(labId: string, seed: number, gpu: boolean, status: RunRecord['status']): RunRecord {
  const r = mulberry32(seed);
  const series = new Map<string, { overhead: number; perMs: number }>();
  const failRate = r() < 0.3 ? 0.15 : 0;
  const samplesMs = (p: PlannedPoint): number[] => {
    let s = series.get(p.series);
    if (!s) {
      s = { overhead: logUniform(r, 1e-4, 10), perMs: logUniform(r, 1e5, 1e10) };
      series.set(p.series, s);
    }
    const median = (s.overhead + Math.max(p.work.flops, p.work.bytes) / s.perMs) * logUniform(r, 0.5, 2);
    const n = 3 + Math.floor(r() * 10);
    const spread = logUniform(r, 1.001, 3);
    const samples = Array.from({ length: n }, () => median * spread ** (2 * r() - 1));
    if (r() < 0.25) samples.push(median * logUniform(r, 1.5, 20));
    return samples;
  };
  const { record } = syntheticRun(labId, { gpu, samplesMs, status, id: `${labId}-${seed}` });
  let out = record;
  for (const p of record.points) if (p.status === 'ok' && r() < failRate) out = withPoint(out, p.key, (q) => failed(q));
  return out;
}

function kernelThroughput(r: () => number, work: number): Throughput {
  const medianMs = logUniform(r, 1e-3, 100);
  const samplesMs = Array.from({ length: 3 + Math.floor(r() * 8) }, () => medianMs * logUniform(r, 0.5, 3));
  return { medianMs, samplesMs, rate: work / (medianMs / 1000), peakFraction: null };
}

function generatedKernelRun(seed: number): KernelRunResult {
  const r = mulberry32(seed);
  const work = logUniform(r, 1e-3, 10);
  const base = saxpyResult();
  return {
    ...base,
    throughput: r() < 0.1 ? null : kernelThroughput(r, work),
    comparisons: base.comparisons.map((c) => (r() < 0.2 ? { ...c, throughput: null, error: 'not timed' } : { ...c, throughput: kernelThroughput(r, work), error: null })),
    peak: r() < 0.5 ? null : { value: logUniform(r, 0.1, 10), unit: 'TB/s' },
  };
}

// The share of the axis above the largest value drawn (of its decades, on a log axis).
function roomAbove(min: number, max: number, top: number, log: boolean): number {
  return log ? Math.log10(max / top) / Math.log10(max / min) : (max - top) / (max - min);
}

function expectAxesHoldWhatIsDrawn(chart: RunChart, what: string): void {
  const drawn = drawnValues(chart);
  const finiteY = drawn.y.filter((v) => Number.isFinite(v));
  expect(finiteY.length, `${what}: a value drawn is not a number`).toBe(drawn.y.length);
  // Every panel of a chart of panels is on the same range; a chart of rows reads its values across.
  for (const id of valueAxes(chart)) expectValueAxisHolds(chart, id, finiteY, what);
  expectSizesOnAxis(chart, drawn.x, what);
}

function expectValueAxisHolds(chart: RunChart, id: string, finiteY: readonly number[], what: string): void {
  const y = scaleBounds(chart, id);
  if (finiteY.length > 0) {
    const { min, max } = y;
    if (min === undefined || max === undefined) throw new Error(`${what}: the y axis has no bounds`);
    if (y.type === 'logarithmic') expect(min, `${what}: log axis from ${min}`).toBeGreaterThan(0);
    for (const v of finiteY) {
      expect(v, `${what}: ${v} below the axis (${min}…${max})`).toBeGreaterThanOrEqual(min);
      expect(v, `${what}: ${v} above the axis (${min}…${max})`).toBeLessThanOrEqual(max);
    }
    const top = Math.max(...finiteY);
    const log = y.type === 'logarithmic';
    const bars = chart.config.type === 'bar';
    // Bars: room for the value written over the highest whisker; lines: for the topmost marker.
    const needed = bars ? 0.07 : 0.03;
    if (top > 0) expect(roomAbove(min, max, top, log), `${what}: room above ${top} on ${min}…${max}`).toBeGreaterThanOrEqual(needed);
  }
}

function expectSizesOnAxis(chart: RunChart, sizes: readonly number[], what: string): void {
  if (chart.config.type === 'line' && sizes.length > 0) {
    const x = scaleBounds(chart, 'x');
    if (x.min === undefined || x.max === undefined) throw new Error(`${what}: the x axis has no bounds`);
    if (x.type === 'logarithmic') expect(x.min).toBeGreaterThan(0);
    for (const v of sizes) {
      expect(v, `${what}: size ${v} left of the axis`).toBeGreaterThanOrEqual(x.min);
      expect(v, `${what}: size ${v} right of the axis`).toBeLessThanOrEqual(x.max);
    }
  }
}

const LABS = labDescriptors('en').map((d) => d.id);
const statuses = fc.constantFrom<RunRecord['status']>('completed', 'running', 'cancelled');

describe('every value drawn lies on the axes', () => {
  it.each(LABS)('%s: the run chart, with a GPU and without, live and ended', (labId) => {
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), statuses, (seed, gpu, status) => {
        const record = generatedRun(labId, seed, gpu, status);
        const { lab } = syntheticRun(labId);
        expectAxesHoldWhatIsDrawn(runChart(record, lab, inputs), `${labId} seed ${seed}`);
      }),
      { numRuns: 40 },
    );
  });

  it.each(LABS)('%s: two runs compared', (labId) => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), fc.boolean(), (seedA, seedB, gpuB) => {
        const a = generatedRun(labId, seedA, true, 'completed');
        const b = generatedRun(labId, seedB, gpuB, 'completed');
        const { lab } = syntheticRun(labId);
        expectAxesHoldWhatIsDrawn(compareChart(a, b, lab, inputs), `${labId} seeds ${seedA}, ${seedB}`);
      }),
      { numRuns: 25 },
    );
  });

  it('the kernel playground’s chart', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expectAxesHoldWhatIsDrawn(kernelRunChart(generatedKernelRun(seed), 'GB/s', inputs), `kernel seed ${seed}`);
      }),
      { numRuns: 100 },
    );
  });

  it.each(['h100-transfer', 'h100-elementwise-breakeven', 'h100-matmul-breakeven', 'h100-dtypes', 'h100-matmul', 'h100-timing-pitfalls', 'h100-vector-function', 'cpu-elementwise-breakeven', 'cpu-matmul', 'cpu-dtypes'])(
    'the recorded run %s',
    (name) => {
      const { record, lab } = fixtureRun(name);
      expectAxesHoldWhatIsDrawn(runChart(record, lab, inputs), name);
    },
  );

  it('keeps a whisker to a 93 ms sample on an axis of bars near 50 ms, on either scale', () => {
    // Every bar about 50 ms, the slowest sample of one at 93 ms.
    const { record, lab } = syntheticRun('matmul', { samplesMs: (p) => (p.series === 'cpu-blas' ? [48, 49, 50, 51, 93] : [49, 50, 50, 51, 52]) });
    const chart = runChart(record, lab, inputs);
    expect(scaleBounds(chart, 'y').max).toBeGreaterThan(93);
    expectAxesHoldWhatIsDrawn(chart, 'matmul with a 93 ms sample');
    const linear = runChart(record, { ...lab, chart: { ...lab.chart, y: { ...lab.chart.y, log: false } } }, inputs);
    const y = scaleBounds(linear, 'y');
    expect(y.type).toBe('linear');
    expect(y.max).toBeGreaterThanOrEqual(93 * (1 + HEADROOM.bars));
    expectAxesHoldWhatIsDrawn(linear, 'matmul with a 93 ms sample, on a linear axis');
  });
});

describe('the ranges', () => {
  it('runs a linear axis from zero to a round value with room above the largest', () => {
    expect(linearRange([50, 93])).toEqual({ log: false, min: 0, max: 120, ticks: [0, 20, 40, 60, 80, 100, 120] });
    expect(linearRange([0.0195, 0.0405])?.max).toBe(0.05);
    // All zero, or one value: still an axis with a length.
    expect(linearRange([0])?.max).toBeGreaterThan(0);
    expect(linearRange([7])?.max).toBeGreaterThan(7);
    expect(linearRange([])).toBeNull();
  });

  it('starts a log axis above zero, a power of ten below the smallest value, and leaves a share of its decades above', () => {
    const range = logRange([0.5, 1370]);
    expect(range?.min).toBe(0.1);
    expect(range?.ticks).toEqual([0.1, 1, 10, 100, 1000]);
    // Exactly a power of ten: the axis starts a decade lower, so that its bar has a length.
    expect(logRange([10, 500])?.min).toBe(1);
    // Zero and below cannot be drawn on it: left out, never the axis's foot.
    expect(logRange([0, -3, 2, 300])?.min).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1e-9, max: 1e12, noNaN: true }), { minLength: 1, maxLength: 20 }), (values) => {
        const r = logRange(values);
        if (!r) throw new Error('no range');
        const top = Math.max(...values);
        expect(r.min).toBeGreaterThan(0);
        expect(r.min).toBeLessThan(Math.min(...values));
        expect(r.max).toBeGreaterThan(top);
        expect(roomAbove(r.min, r.max, top, true)).toBeCloseTo(HEADROOM.bars / (1 + HEADROOM.bars), 9);
        for (const t of r.ticks) expect([1, 2, 5]).toContain(Number((t / 10 ** Math.floor(Math.log10(t) + 1e-9)).toPrecision(6)));
      }),
    );
  });
});
