// A kernel run's chart as a configuration: the student's kernel first, then every comparison in main's order; a bar
// at each median's rate with whiskers from the slowest to the fastest sample; the device's peak as a line in the
// chart's unit; a comparison without a figure keeps its place and says why; SGEMM reads in TFLOP/s; Spanish words.
import { describe, expect, it } from 'vitest';

import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import { chartQuantity, kernelRunChart, peakInMetric, sampleRateRange } from '../../../../main/common/pure/charts/playground-chart.ts';
import { axisTicks, barConfig, marks } from '../charts/config-access.ts';
import { inputs, inputsEs, reductionFromL2Result, saxpyResult, sgemmResult, throughput } from './synthetic-kernel-run.ts';

const rounded = (values: readonly (number | null | undefined)[]) => values.map((v) => (typeof v === 'number' ? Math.round(v) : v));

const WHISKERS = 'Bar: median of the samples. Whiskers: fastest to slowest sample (min to max).';

describe('the kernel run chart', () => {
  it('puts your kernel first and each comparison after it, at the rate of its median', () => {
    const chart = kernelRunChart(saxpyResult(), 'GB/s', inputs);
    const config = barConfig(chart);
    expect(config.data.labels).toEqual([['Your kernel', '90 % of peak'], ['Reference: float4', 'loads', '93 % of peak'], ['Built-in SAXPY', '88 % of peak'], ['cublasSaxpy', 'not timed']]);
    const byLabel = Object.fromEntries(config.data.datasets.map((d) => [d.label, rounded(d.data)]));
    expect(byLabel).toEqual({
      'Your kernel': [3000, null, null, null],
      'Reference kernels': [null, 3100, null, null],
      'Built-in kernels': [null, null, 2950, null],
      'cuBLAS library': [null, null, null, null],
    });
    expect(chart.drawnPoints).toBe(3);
  });

  it('draws whiskers from the slowest to the fastest sample, and writes the median rate on each bar', () => {
    const chart = kernelRunChart(saxpyResult(), 'GB/s', inputs);
    const yours = (marks(chart).whiskers ?? []).find((w) => w.dataset === 0 && w.index === 0);
    // Samples from 0.95 to 1.14 times the median: the rate runs from 3000 / 1.14 to 3000 / 0.95.
    expect(rounded([yours?.low, yours?.high])).toEqual([2632, 3158]);
    expect((marks(chart).barLabels ?? []).map((l) => l.text)).toEqual(['3 k', '3.1 k', '2.95 k']);
  });

  it('draws the device’s peak as a line in the chart’s unit, and keeps it on the axis', () => {
    const chart = kernelRunChart(saxpyResult(), 'GB/s', inputs);
    expect(marks(chart).horizontal?.map((h) => [h.y, h.label])).toEqual([[3350, 'Peak of the device: 3.35 TB/s']]);
    expect(chart.notes).not.toContain('The device’s peak for this metric is not known, so no peak line is drawn.');
    const y = barConfig(chart).options?.scales?.y;
    expect(y?.type).toBe('linear');
  });

  it('draws no peak line for data read from L2, and does not call the peak unknown: the report says why', () => {
    const chart = kernelRunChart(reductionFromL2Result(), 'GB/s', inputs);
    expect(marks(chart).horizontal ?? []).toEqual([]);
    // How to read the bars, and nothing about the peak.
    expect(chart.notes).toEqual([WHISKERS]);
    expect(kernelRunChart({ ...reductionFromL2Result(), l2: undefined }, 'GB/s', inputs).notes).toEqual([WHISKERS, 'The device’s peak for this metric is not known, so no peak line is drawn.']);
  });

  it('names a comparison that has no figure, and one whose output was wrong, under the chart', () => {
    const result = saxpyResult();
    const [reference, builtin, cublas] = result.comparisons;
    if (!reference || !builtin || !cublas) throw new Error('the synthetic run has three comparisons');
    const chart = kernelRunChart({ ...result, comparisons: [reference, { ...builtin, verified: false }, cublas] }, 'GB/s', inputs);
    expect(chart.notes).toEqual([WHISKERS, 'Built-in SAXPY: timed, but its output did not match the reference.', 'cublasSaxpy: no bar (no cuBLAS on this machine).']);
  });

  it('says why your kernel has no bar when it did not compile, and draws nothing when nothing was timed', () => {
    const result = saxpyResult({ compile: { ...saxpyResult().compile, ok: false }, launch: null, verification: null, throughput: null, comparisons: [] });
    const chart = kernelRunChart(result, 'GB/s', inputs);
    expect(chart.notes[0]).toBe('Your kernel was not timed: it did not compile.');
    expect(chart.drawnPoints).toBe(0);
    expect(marks(chart).empty).toBe('Nothing of this run was timed.');
  });

  it('reads SGEMM in TFLOP/s, its peak line too', () => {
    const chart = kernelRunChart(sgemmResult(), 'GFLOP/s', inputs);
    const config = barConfig(chart);
    expect(rounded(config.data.datasets[0]?.data ?? [])).toEqual([50, null]);
    expect(marks(chart).horizontal?.map((h) => [h.y, h.label])).toEqual([[67, 'Peak of the device: 67 TFLOP/s']]);
    expect(config.options?.plugins?.title).toMatchObject({ text: 'Throughput in TFLOP/s (higher is faster)' });
    expect(chart.description).toBe('Throughput in TFLOP/s (higher is faster) of your kernel and the kernels it is compared with: 2 bars; the fastest is cublasSgemm, 57.27 TFLOP/s.');
  });

  it('stays on a linear axis from zero when a naive kernel sits two decades below the peak: a bar reads as its share', () => {
    const result = saxpyResult({ throughput: throughput(12 * 2 ** 24 / 1e9 / 20 * 1000, 3350), comparisons: [] });
    expect(axisTicks(kernelRunChart(result, 'GB/s', inputs), 'y').type).toBe('linear');
  });

  it('speaks Spanish with decimal commas', () => {
    // The app's language store sets the number locale with the language.
    setNumberLocale('es');
    const chart = kernelRunChart(sgemmResult(), 'GFLOP/s', inputsEs);
    setNumberLocale('en');
    expect(barConfig(chart).data.labels?.[0]).toEqual(['Tu kernel', '75 % del pico']);
    expect(marks(chart).horizontal?.[0]?.label).toBe('Pico del dispositivo: 67 TFLOP/s');
    expect(chart.description).toContain('el más rápido es cublasSgemm, 57,27 TFLOP/s');
  });
});

describe('the chart’s arithmetic', () => {
  it('reads a peak given in the tera unit in the exercise’s metric, and refuses one in another metric', () => {
    expect(peakInMetric({ value: 3.35, unit: 'TB/s' }, 'GB/s')).toBe(3350);
    expect(peakInMetric({ value: 67, unit: 'TFLOP/s' }, 'GFLOP/s')).toBe(67_000);
    expect(peakInMetric({ value: 3350, unit: 'GB/s' }, 'GFLOP/s')).toBeNull();
    expect(peakInMetric(null, 'GB/s')).toBeNull();
  });

  it('keeps bandwidth in GB/s and moves GFLOP/s to TFLOP/s from 1000', () => {
    expect(chartQuantity('GB/s', 3350)).toEqual({ quantity: 'GB/s', scale: 1 });
    expect(chartQuantity('GFLOP/s', 999)).toEqual({ quantity: 'GFLOP/s', scale: 1 });
    expect(chartQuantity('GFLOP/s', 50_000)).toEqual({ quantity: 'TFLOP/s', scale: 1000 });
  });

  it('gives the rate of the slowest and the fastest sample as the work over their times', () => {
    expect(sampleRateRange({ medianMs: 2, samplesMs: [1, 2, 4], rate: 100, peakFraction: null })).toEqual({ low: 50, high: 200 });
    expect(sampleRateRange({ medianMs: 2, samplesMs: [], rate: 100, peakFraction: null })).toEqual({ low: 100, high: 100 });
  });
});
