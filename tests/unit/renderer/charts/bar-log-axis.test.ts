// Bars whose values span more than a factor of 10 stand on a log axis (a GPU bar of 14.6 ms beside a CPU bar of
// 708 ms would be two pixels high on a linear one), ticked at 1, 2 and 5 times each power of ten in the quantity's
// unit, its title saying it is logarithmic in English and in Spanish; up to a factor of 10 they stay linear from zero.
import { describe, expect, it } from 'vitest';

import { results as resultsEs } from '../../../../main/common/i18n/es/results.ts';
import { catalogTranslate } from '../../../../main/common/i18n/translate.ts';
import type { PlannedPoint } from '../../../../main/labs/lab.ts';
import { compareChart } from '../../../../renderer/charts/compare-chart.ts';
import { kernelRunChart } from '../../../../renderer/charts/playground-chart.ts';
import { runChart } from '../../../../renderer/charts/run-chart.ts';
import { saxpyResult, throughput } from '../playground/synthetic-kernel-run.ts';
import { axisTicks, scaleBounds } from './config-access.ts';
import { fixtureRun, inputs, syntheticRun } from './synthetic-runs.ts';

// A matmul run whose every sample of the CPU takes `cpuMs` and of each GPU point `gpuMs`: no spread, so that the
// values drawn span exactly cpuMs ÷ gpuMs.
function matmulRun(cpuMs: number, gpuMs: number) {
  return syntheticRun('matmul', { samplesMs: (p: PlannedPoint) => Array.from({ length: 5 }, () => (p.device === 'cpu' ? cpuMs : gpuMs)) });
}

const yTitle = (chart: ReturnType<typeof runChart>) => (chart.config.options?.scales?.y?.title as { text?: string } | undefined)?.text;

describe('a bar chart’s y axis', () => {
  it('is logarithmic for the H100 matmul run, GPU 14.6 ms beside CPU 708 ms, ticked at 1, 2 and 5 in its unit', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const chart = runChart(record, lab, inputs);
    expect(axisTicks(chart, 'y')).toEqual({ type: 'logarithmic', labels: ['10 ms', '20 ms', '50 ms', '100 ms', '200 ms', '500 ms', '1 s'] });
    expect(yTitle(chart)).toBe('Median time (lower is faster), log scale');
  });

  it('turns logarithmic just past a factor of 10, and stays linear from zero at 10', () => {
    const linear = matmulRun(100, 10);
    const atTen = runChart(linear.record, linear.lab, inputs);
    expect(scaleBounds(atTen, 'y')).toMatchObject({ type: 'linear', min: 0 });
    expect(yTitle(atTen)).toBe('Median time (lower is faster)');

    const log = matmulRun(101, 10);
    const pastTen = runChart(log.record, log.lab, inputs);
    expect(scaleBounds(pastTen, 'y').type).toBe('logarithmic');
    expect(axisTicks(pastTen, 'y').labels).toEqual(['1 ms', '2 ms', '5 ms', '10 ms', '20 ms', '50 ms', '100 ms']);
  });

  it('says it is logarithmic in Spanish', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const tEs = catalogTranslate({ results: resultsEs });
    expect(yTitle(runChart(record, lab, { ...inputs, t: tEs }))).toBe('Tiempo mediano (menos es mejor), escala logarítmica');
    const linear = matmulRun(100, 20);
    expect(yTitle(runChart(linear.record, linear.lab, { ...inputs, t: tEs }))).toBe('Tiempo mediano (menos es mejor)');
  });

  it('follows the same rule on two runs compared and on the kernel playground’s chart', () => {
    const a = matmulRun(100, 10);
    const b = matmulRun(101, 10);
    expect(scaleBounds(compareChart(a.record, a.record, a.lab, inputs), 'y').type).toBe('linear');
    expect(scaleBounds(compareChart(a.record, b.record, a.lab, inputs), 'y').type).toBe('logarithmic');
    // The peak line at 3350 GB/s over a reference kernel at 400 GB/s, whose slowest sample is 351 GB/s: 9.5 times; at
    // 250 GB/s (219 at its slowest), 15 times.
    const reference = saxpyResult().comparisons[0];
    if (!reference) throw new Error('the synthetic run has a reference kernel');
    const at = (gbps: number) => saxpyResult({ comparisons: [{ ...reference, throughput: throughput(((12 * 2 ** 24) / 1e9 / gbps) * 1000, 3350) }] });
    expect(scaleBounds(kernelRunChart(at(400), 'GB/s', inputs), 'y').type).toBe('linear');
    expect(scaleBounds(kernelRunChart(at(250), 'GB/s', inputs), 'y').type).toBe('logarithmic');
  });
});
