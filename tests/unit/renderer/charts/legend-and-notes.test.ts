// What a chart says about what it does not draw. Series waived are one legend entry per reason ("6 series waived";
// one series waived alone keeps its name), the reason said in the notes under the chart where a long one wraps, in
// English and in Spanish, on a run's chart and on two runs compared. What has not happened "yet" is said only while
// the run is queued or going: once it has ended the chart says what did not happen and why, or nothing.
import { afterEach, describe, expect, it } from 'vitest';

import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import type { RunRecord } from '../../../../main/common/run-record.ts';
import { compareChart } from '../../../../main/common/pure/charts/compare-chart.ts';
import type { RunChart } from '../../../../main/common/pure/charts/chart-common.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { inputsEs } from '../playground/synthetic-kernel-run.ts';
import { barConfig, lineConfig, marks, seriesLines } from './config-access.ts';
import { fixtureRun, inputs, syntheticRun } from './synthetic-runs.ts';

const NO_DRIVER = 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)';

// The legend's entries as Chart.js lists them: every dataset its filter keeps (a band's two edges it leaves out).
function legendEntries(chart: RunChart): string[] {
  const legend = chart.config.options?.plugins?.legend;
  if (legend?.display === false) return [];
  const filter = legend?.labels?.filter as ((item: { datasetIndex: number }) => boolean) | undefined;
  const datasets = chart.config.data.datasets as { label?: string }[];
  return datasets.flatMap((d, i) => (filter && !filter({ datasetIndex: i }) ? [] : [d.label ?? '']));
}

afterEach(() => setNumberLocale('en'));

describe('the legend of series waived', () => {
  it('gives the six GPU series of a CPU-only run one entry with their reason', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const chart = runChart(record, lab, inputs);
    // The CPU of every panel is one entry.
    expect(legendEntries(chart)).toEqual(['CPU', '6 series waived']);
    // Nothing is drawn for it, and it is not counted as drawn.
    expect(seriesLines(lineConfig(chart)).find((s) => s.label.startsWith('6 series'))?.data).toEqual([]);
    // The note under the chart still names each series.
    expect(chart.notes).toContain(`Waived (${NO_DRIVER}): add GPU with transfers; add GPU resident; mul GPU with transfers; mul GPU resident; exp GPU with transfers; exp GPU resident.`);
  });

  it('says it in Spanish, the reason in Spanish where the run recorded it as a message', () => {
    setNumberLocale('es');
    const { record, lab } = syntheticRun('elementwise-breakeven', { gpu: false });
    const chart = runChart(record, lab, inputsEs);
    expect(legendEntries(chart).at(-1)).toBe('6 series sin ejecutar');
    expect(chart.notes.some((n) => n.includes('GPU Lab se compiló sin CUDA: nvcc was not found'))).toBe(true);
  });

  it('keeps the name of a series waived alone for its reason, and groups by reason where they differ', () => {
    const { record, lab } = syntheticRun('elementwise-breakeven', { gpu: false, params: { ops: ['add', 'mul'] } });
    // mul's resident points waived for another reason than the others.
    const other: RunRecord = {
      ...record,
      points: record.points.map((p) => (p.series === 'mul-gpu-resident' ? { ...p, reason: 'out of device memory', why: undefined } : p)),
    };
    const chart = runChart(other, lab, inputs);
    expect(legendEntries(chart)).toEqual(['CPU', '3 series waived', 'mul GPU resident — waived']);
    expect(chart.notes).toContain('Waived (built without CUDA: nvcc was not found): add GPU with transfers; add GPU resident; mul GPU with transfers.');
    expect(chart.notes).toContain('Waived (out of device memory): mul GPU resident.');
    const { record: dtypes, lab: dtypesLab } = fixtureRun('cpu-dtypes');
    expect(legendEntries(runChart(dtypes, dtypesLab, inputs))).toEqual(['CPU', 'GPU — waived']);
  });

  it('draws no bars for series waived, one legend entry for them, and keeps their categories named', () => {
    const { record, lab } = fixtureRun('cpu-dtypes');
    const config = barConfig(runChart(record, lab, inputs));
    expect(config.data.datasets.map((d) => [d.label, d.data.filter((v) => v !== null).length])).toEqual([
      ['CPU', 2],
      ['GPU — waived', 0],
    ]);
    expect(config.data.labels).toEqual(['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8']);
  });

  it('names the run of the series waived on two runs compared', () => {
    const a = fixtureRun('h100-matmul-breakeven');
    const chart = compareChart(a.record, fixtureRun('cpu-matmul-breakeven').record, a.lab, inputs);
    expect(legendEntries(chart)).toEqual(['CPU BLAS (A)', 'GPU with transfers (A)', 'GPU resident (A)', 'CPU BLAS (B)', '2 series waived (B)']);
    expect(chart.notes).toContain(`Run B: Waived (${NO_DRIVER}): GPU with transfers; GPU resident.`);
    const bars = compareChart(fixtureRun('h100-matmul').record, fixtureRun('cpu-matmul').record, fixtureRun('h100-matmul').lab, inputs);
    expect(legendEntries(bars).filter((l) => l.includes('waived'))).toEqual(['4 series waived (B)']);
  });
});

describe('"yet" only while the run goes on', () => {
  const live = (record: RunRecord): RunRecord => ({ ...record, status: 'running' });

  it('says no GPU series has a point yet while the CPU-only run goes on, and that none was measured, and why, once it ended', () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    expect(runChart(live(record), lab, inputs).notes).toContainEqual(expect.stringMatching(/^No GPU series has a measured point yet, so there is no speedup to draw: the chart shows .*GB\/s/));
    expect(runChart(record, lab, inputs).notes).toContain(
      `No GPU series was measured: ${NO_DRIVER}. There is no speedup to draw, so the chart shows Bandwidth in GB/s (higher is faster) of what was measured instead.`,
    );
  });

  it('says it in Spanish', () => {
    setNumberLocale('es');
    const { record, lab } = syntheticRun('elementwise-breakeven', { gpu: false });
    expect(runChart(live(record), lab, inputsEs).notes).toContainEqual(expect.stringMatching(/^Ninguna serie de GPU tiene todavía un punto medido/));
    expect(runChart(record, lab, inputsEs).notes).toContainEqual(expect.stringMatching(/^No se midió ninguna serie de GPU: GPU Lab se compiló sin CUDA: nvcc was not found\. No hay aceleración que dibujar/));
  });

  it('writes "no points measured yet" across an empty chart only while the run goes on', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const empty: RunRecord = { ...record, points: [] };
    expect(marks(runChart(live(empty), lab, inputs)).empty).toBe('No points measured yet.');
    expect(marks(runChart({ ...empty, status: 'queued' }, lab, inputs)).empty).toBe('No points measured yet.');
    expect(marks(runChart({ ...empty, status: 'failed' }, lab, inputs)).empty).toBe('No points were measured.');
    const sweep = fixtureRun('h100-transfer');
    expect(marks(runChart({ ...sweep.record, points: [], status: 'cancelled' }, sweep.lab, inputs)).empty).toBe('No points were measured.');
    expect(marks(runChart({ ...sweep.record, points: [], status: 'running' }, sweep.lab, inputs)).empty).toBe('No points measured yet.');
  });

  it.each(['cpu-dtypes', 'cpu-elementwise-breakeven', 'cpu-matmul-breakeven', 'cpu-matmul', 'cpu-timing-pitfalls', 'cpu-transfer', 'cpu-vector-function', 'h100-matmul'])(
    '%s, ended: no note, description or message of its chart says "yet", in English or Spanish',
    (name) => {
      const { record, lab } = fixtureRun(name);
      for (const [chart, pattern] of [
        [runChart(record, lab, inputs), /\byet\b/i],
        [runChart(record, lab, inputsEs), /todavía/i],
        [runChart({ ...record, points: [] }, lab, inputs), /\byet\b/i],
        [runChart({ ...record, points: [] }, lab, inputsEs), /todavía/i],
      ] as const) {
        for (const text of [...chart.notes, chart.description, marks(chart).empty ?? '']) expect(text).not.toMatch(pattern);
      }
    },
  );
});
