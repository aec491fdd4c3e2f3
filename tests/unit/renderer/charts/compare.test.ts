// Two runs compared: B ÷ A per point key with the faster run named (or neither, where their medians' intervals overlap), points present in
// one run only, parameters that differ, and the overlaid chart (A solid, B dashed, one colour per series).
import { describe, expect, it } from 'vitest';
import { setNumberLocale } from '../../../../main/common/pure/locale.ts';

import type { RunRecord } from '../../../../main/common/run-record.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { catalogTranslate } from '../../../../main/common/pure/i18n/translate.ts';
import { compareChart } from '../../../../main/common/pure/charts/compare-chart.ts';
import { compareRows, paramRows } from '../../../../main/common/pure/charts/compare-rows.ts';
import { results as resultsEs } from '../../../../main/common/pure/i18n/es/results.ts';
import { barConfig, lineConfig, marks } from './config-access.ts';
import { fixtureRun, inputs, syntheticRun, t } from './synthetic-runs.ts';

// Run B: every time scaled by `factor`, statistics included.
function scaled(record: RunRecord, factor: number): RunRecord {
  return {
    ...record,
    id: `${record.id}-scaled`,
    points: record.points.map((p) =>
      p.stats
        ? {
            ...p,
            stats: { ...p.stats, median: p.stats.median * factor, q1: p.stats.q1 * factor, q3: p.stats.q3 * factor, min: p.stats.min * factor, max: p.stats.max * factor },
          }
        : p,
    ),
  };
}

describe('comparison rows', () => {
  it('gives B ÷ A per point and names the faster run when the spreads do not overlap', () => {
    const { record } = syntheticRun('matmul');
    const rows = compareRows(record, scaled(record, 0.5), t);
    expect(rows.map((r) => r.ratio)).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(rows[0]).toMatchObject({ key: 'cpu-blas', presence: 'both', ratioText: '0.50×', faster: 'B', fasterText: 'run B faster' });
    expect(compareRows(record, scaled(record, 3), t)[0]).toMatchObject({ ratioText: '3.00×', faster: 'A', fasterText: 'run A faster' });
  });

  it('calls neither faster when the two medians\' 95 % intervals overlap', () => {
    const { record } = syntheticRun('matmul');
    // 2 % slower still lies within the medians' uncertainty.
    expect(compareRows(record, scaled(record, 1.02), t)[0]).toMatchObject({ faster: 'tie', fasterText: 'cannot be told apart' });
  });

  it('compares the H100 machine with the CPU-only machine: the CPU in both, the GPU points waived in one', () => {
    const a = fixtureRun('h100-matmul').record;
    // The CPU-only record at the H100 run's N: the same work, so a ratio and a verdict.
    const b7000 = { ...fixtureRun('cpu-matmul').record, params: { ...a.params }, points: fixtureRun('cpu-matmul').record.points.map((p, i) => ({ ...p, x: a.points[i]?.x ?? p.x, work: a.points[i]?.work ?? p.work })) };
    const rows = compareRows(a, b7000, t);
    const cpuA = a.points[0]?.stats?.median ?? 0;
    const cpuB = b7000.points[0]?.stats?.median ?? 0;
    expect(rows[0]?.ratio).toBeCloseTo(cpuB / cpuA, 12);
    expect(rows[1]).toMatchObject({ key: 'gpu-transfers', medianA: '70.4 ms', medianB: 'waived', ratio: null, ratioText: '—', faster: null });
  });

  it('computes no ratio and names no faster run where the same point measured different work (N = 7000 against 1500)', () => {
    const a = fixtureRun('h100-matmul').record;
    const b = fixtureRun('cpu-matmul').record;
    for (const r of compareRows(a, b, t)) {
      expect(r.ratio, r.key).toBeNull();
      expect(r.faster, r.key).toBeNull();
    }
    expect(compareRows(a, b, t)[0]).toMatchObject({ key: 'cpu-blas', comparable: false, ratioText: '—', fasterText: 'N = 7000 vs N = 1500: not comparable' });
    const es = compareRows(a, b, catalogTranslate({ results: resultsEs }), labDescriptors('es').find((d) => d.id === 'matmul'));
    expect(es[0]?.fasterText).toBe('N = 7000 frente a N = 1500: no comparables');
  });

  it('lists points measured in one run only', () => {
    const a = syntheticRun('elementwise-breakeven', { params: { ops: ['add'], maxExponent: 4, pointsPerDecade: 1 } }).record;
    const b = syntheticRun('elementwise-breakeven', { params: { ops: ['add'], maxExponent: 5, pointsPerDecade: 1 } }).record;
    const only = compareRows(a, b, t).filter((r) => r.presence !== 'both');
    expect(only.map((r) => [r.key, r.medianA, r.fasterText])).toEqual([
      ['add-cpu@100000', 'not in this run', 'only in run B'],
      ['add-gpu-transfers@100000', 'not in this run', 'only in run B'],
      ['add-gpu-resident@100000', 'not in this run', 'only in run B'],
    ]);
  });

  it('sets the parameters side by side and marks those that differ', () => {
    const { lab } = fixtureRun('h100-matmul');
    const rows = paramRows(fixtureRun('h100-matmul').record, fixtureRun('cpu-matmul').record, lab.parameters);
    expect(rows.map((r) => [r.label, r.a, r.b, r.differs])).toEqual([
      ['Matrix size N', '7000', '1500', true],
      ['Repeats', '10 samples', '10 samples', false],
      ['CPU repeats', '3 samples', '3 samples', false],
      ['Warm-up runs', '1 run', '1 run', false],
    ]);
  });
});

describe('comparison chart', () => {
  it('draws both runs of a sweep in the series colour, A solid and B dashed', () => {
    const a = fixtureRun('h100-matmul-breakeven');
    const b = fixtureRun('cpu-matmul-breakeven');
    const chart = compareChart(a.record, b.record, a.lab, inputs);
    const datasets = lineConfig(chart).data.datasets;
    const cpuA = datasets.find((d) => d.label === 'CPU BLAS (A)');
    const cpuB = datasets.find((d) => d.label === 'CPU BLAS (B)');
    expect(cpuA?.borderColor).toBe(cpuB?.borderColor);
    expect(cpuA?.borderDash).toEqual([]);
    expect(cpuB?.borderDash).toEqual([6, 4]);
    // Run B's two GPU series, waived for the same reason: one legend entry.
    expect(datasets.map((d) => d.label)).toContain('2 series waived (B)');
    const ok = [...a.record.points, ...b.record.points].filter((p) => p.status === 'ok').length;
    expect(chart.drawnPoints).toBe(ok);
  });

  it('draws run B outlined beside run A on bar charts', () => {
    const a = fixtureRun('h100-dtypes');
    const chart = compareChart(a.record, fixtureRun('cpu-dtypes').record, a.lab, inputs);
    const datasets = barConfig(chart).data.datasets;
    const gpuA = datasets.find((d) => d.label === 'GPU (A)');
    const cpuB = datasets.find((d) => d.label === 'CPU (B)');
    expect(gpuA?.data).toHaveLength(6);
    expect(cpuB?.borderWidth).toBe(2);
    expect(String(cpuB?.backgroundColor)).toMatch(/^rgba\(.*0\.12\)$/);
  });
});

describe('a speedup lab compared where a run has no speedup', () => {
  // Two CPU-only runs of the elementwise lab: no GPU series to divide by in either.
  const cpuOnly = (seed: number) => syntheticRun('elementwise-breakeven', { gpu: false, params: { ops: ['add'] }, id: `cpu-only-${seed}`, medianMs: (p) => (p.x ?? 1) * 1e-6 * seed });

  it('compares two CPU-only runs by the bandwidth both measured, not as an empty speedup chart', () => {
    const a = cpuOnly(1);
    const b = cpuOnly(2);
    const chart = compareChart(a.record, b.record, a.lab, inputs);
    expect((chart.config.options?.plugins?.title as { text?: string }).text).toBe('Bandwidth in GB/s (higher is faster), log scale');
    const ok = [...a.record.points, ...b.record.points].filter((p) => p.status === 'ok');
    expect(chart.drawnPoints).toBe(ok.length);
    const cpuA = lineConfig(chart).data.datasets.find((d) => d.label === 'CPU (A)');
    const first = a.record.points.find((p) => p.series === 'add-cpu' && p.status === 'ok');
    expect(cpuA?.data.find((pt) => pt.x === first?.x)?.y).toBeCloseTo(first?.gbps ?? 0, 9);
    expect(chart.notes).toContain('Not both runs measured a speedup (one needs a GPU series measured): the chart compares Bandwidth in GB/s (higher is faster) instead, which both runs measured.');
    expect(marks(chart).horizontal).toEqual([]);
  });

  it('falls back too where one run has a GPU and the other has not, and keeps the speedup where both have one', () => {
    const gpu = fixtureRun('h100-elementwise-breakeven');
    const cpu = fixtureRun('cpu-elementwise-breakeven');
    const mixed = compareChart(gpu.record, cpu.record, gpu.lab, inputs);
    // Not bandwidth: the GPU with the copies has no rate (its time is mostly the bus's), so the times.
    expect((mixed.config.options?.plugins?.title as { text?: string }).text).toMatch(/^Median time/);
    expect(mixed.drawnPoints).toBe([...gpu.record.points, ...cpu.record.points].filter((p) => p.status === 'ok').length);
    const both = compareChart(gpu.record, gpu.record, gpu.lab, inputs);
    expect((both.config.options?.plugins?.title as { text?: string }).text).toMatch(/^Speedup over the baseline/);
  });
});

describe('two runs compared in Spanish', () => {
  it('names the points of runs recorded in English in the Spanish lab’s words, and as recorded without a lab', () => {
    const a = fixtureRun('cpu-matmul-breakeven').record;
    const b = fixtureRun('h100-matmul-breakeven').record;
    const spanishLab = labDescriptors('es').find((d) => d.id === 'matmul-breakeven');
    const tEs = catalogTranslate({ results: resultsEs });
    // The app writes numbers in the language it shows (5000 in Spanish); without a lab, the label as recorded.
    setNumberLocale('es');
    try {
      expect(compareRows(a, b, tEs, spanishLab).find((r) => r.key === 'gpu-resident@5000')).toMatchObject({
        label: 'GPU con datos residentes, N = 5000',
        fasterText: 'solo en la ejecución B',
      });
    } finally {
      setNumberLocale('en');
    }
    expect(compareRows(a, b, tEs).find((r) => r.key === 'gpu-resident@5000')?.label).toBe('GPU resident, N = 5000');
  });
});
