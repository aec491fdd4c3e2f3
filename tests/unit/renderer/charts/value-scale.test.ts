// A lab's chart keeps its scale from one run to the next: logarithmic or linear as the lab's descriptor says, whatever
// the values a run happened to measure (bars of one size, bars four decades apart, no bar at all), ticked at 1, 2 and
// 5 times each power of ten in the quantity's unit where the axis is long enough, its title saying so in English and
// in Spanish; two runs compared on the lab's scale too; the kernel playground's chart linear whatever its rates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { results as resultsEs } from '../../../../main/common/pure/i18n/es/results.ts';
import { catalogTranslate } from '../../../../main/common/pure/i18n/translate.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import type { PlannedPoint } from '../../../../main/labs/lab.ts';
import { compareChart } from '../../../../main/common/pure/charts/compare-chart.ts';
import { kernelRunChart } from '../../../../main/common/pure/charts/playground-chart.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { saxpyResult, throughput } from '../playground/synthetic-kernel-run.ts';
import { axisTicks, scaleBounds, valueAxes } from './config-access.ts';
import { fixtureRun, inputs, syntheticRun } from './synthetic-runs.ts';

const title = (chart: ReturnType<typeof runChart>) => (chart.config.options?.plugins?.title as { text?: string } | undefined)?.text;

// A run of the lab whose CPU samples all take `cpuMs` and GPU samples `gpuMs`: no spread, so that the values drawn
// span exactly what the test chooses.
function runOf(labId: string, cpuMs: number, gpuMs: number, gpu = true) {
  return syntheticRun(labId, { gpu, samplesMs: (p: PlannedPoint) => Array.from({ length: 5 }, () => (p.device === 'cpu' ? cpuMs : gpuMs)) });
}

const LABS = labDescriptors('en').map((d) => d.id);

describe('a lab’s value axis', () => {
  it.each(LABS)('%s: the lab’s scale, whatever the times measured, with a GPU or without', (labId) => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e4, noNaN: true }), fc.double({ min: 1e-4, max: 1e4, noNaN: true }), fc.boolean(), (cpuMs, gpuMs, gpu) => {
        const { record, lab } = runOf(labId, cpuMs, gpuMs, gpu);
        const chart = runChart(record, lab, inputs);
        const expected = lab.chart.y.log ? 'logarithmic' : 'linear';
        for (const id of valueAxes(chart)) expect(scaleBounds(chart, id).type, `${labId}, ${cpuMs} ms against ${gpuMs} ms`).toBe(expected);
        expect(title(chart)?.endsWith(', log scale')).toBe(lab.chart.y.log);
      }),
      { numRuns: 15 },
    );
  });

  it('breaks when the scale follows the values: a linear lab stays linear over four decades, a log lab log over none', () => {
    const wide = runOf('matmul', 1000, 0.1);
    const linearLab = { ...wide.lab, chart: { ...wide.lab.chart, y: { ...wide.lab.chart.y, log: false } } };
    expect(scaleBounds(runChart(wide.record, linearLab, inputs), 'y')).toMatchObject({ type: 'linear', min: 0 });
    const flat = runOf('matmul', 10, 10);
    expect(scaleBounds(runChart(flat.record, flat.lab, inputs), 'y').type).toBe('logarithmic');
  });

  it('ticks the H100 matmul run, GPU 14.6 ms beside CPU 708 ms, at 1, 2 and 5 in its unit, and says it is logarithmic', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const chart = runChart(record, lab, inputs);
    expect(axisTicks(chart, 'y')).toEqual({ type: 'logarithmic', labels: ['10 ms', '20 ms', '50 ms', '100 ms', '200 ms', '500 ms', '1 s'] });
    expect(title(chart)).toBe('Median time (lower is faster), log scale');
    // On an axis too short for seven labels (a narrow window), the powers of ten alone.
    expect(axisTicks(chart, 'y', 60).labels).toEqual(['10 ms', '100 ms', '1 s']);
  });

  it('says it is logarithmic in Spanish', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const tEs = catalogTranslate({ results: resultsEs });
    expect(title(runChart(record, lab, { ...inputs, t: tEs }))).toBe('Tiempo mediano (menos es mejor), escala logarítmica');
  });

  it('compares two runs on the lab’s scale; the kernel playground’s chart is linear whatever its rates', () => {
    const a = runOf('matmul', 100, 10);
    const b = runOf('matmul', 10, 10);
    expect(scaleBounds(compareChart(a.record, b.record, a.lab, inputs), 'y').type).toBe('logarithmic');
    // The peak line at 3350 GB/s over a reference kernel at 400 GB/s, or at 25 GB/s: a hundred times apart.
    const reference = saxpyResult().comparisons[0];
    if (!reference) throw new Error('the synthetic run has a reference kernel');
    const at = (gbps: number) => saxpyResult({ comparisons: [{ ...reference, throughput: throughput(((12 * 2 ** 24) / 1e9 / gbps) * 1000, 3350) }] });
    expect(scaleBounds(kernelRunChart(at(400), 'GB/s', inputs), 'y')).toMatchObject({ type: 'linear', min: 0 });
    expect(scaleBounds(kernelRunChart(at(25), 'GB/s', inputs), 'y')).toMatchObject({ type: 'linear', min: 0 });
  });
});
