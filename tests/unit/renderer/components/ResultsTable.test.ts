// ResultsTable: one dense row per point (series, size, median with its interval, rate, % of peak, speedup, samples,
// verified), ✓/✗ with words for screen readers, failed and noisy rows marked, waived rows in a folded group whose
// reason is said once; rows sorted from a column's header; a point's samples one click away; only a screenful of a
// long run drawn; and while a run streams, a new point builds one new row, not all of them.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { formatMs, formatPercent } from '../../../../main/common/pure/format.ts';
import type { RunRecord } from '../../../../main/common/run-record.ts';
import { intervalHalfWidth } from '../../../../main/common/pure/statistics.ts';
import { withCurrentFindings } from '../../../../main/runs/current-findings.ts';
import type * as ResultRows from '../../../../main/common/pure/charts/result-rows.ts';
import { resultRow } from '../../../../main/common/pure/charts/result-rows.ts';
import ResultsTable from '../../../../renderer/components/results/ResultsTable.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { failed, fixtureRun, syntheticRun, withPoint } from '../charts/synthetic-runs.ts';

vi.mock('../../../../main/common/pure/charts/result-rows.ts', async (original) => {
  const real = await original<typeof ResultRows>();
  return { ...real, resultRow: vi.fn(real.resultRow) };
});

beforeEach(() => {
  vi.mocked(resultRow).mockClear();
});

function mountTable(record: RunRecord, lab: ReturnType<typeof fixtureRun>['lab']) {
  return mount(ResultsTable, { props: { record, lab }, global: { plugins: [createPinia(), i18n] }, attachTo: document.body });
}

describe('ResultsTable', () => {
  it('shows every point on one line with its figures, under a caption', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const wrapper = mountTable(record, lab);
    expect(wrapper.get('caption').text()).toMatch(/^Every point of the run/);
    expect(wrapper.findAll('tbody tr[data-key]')).toHaveLength(5);
    const cublas = wrapper.get('tr[data-key="gpu-cublas"]');
    const figure = (metric: string): string => cublas.get(`[data-metric="${metric}"]`).text();
    expect(figure('series')).toMatch(/^GPU cuBLAS resident/);
    // The button's words for screen readers name the point and what it does.
    expect(cublas.get('[data-testid="show-samples"]').attributes('aria-label')).toBe('GPU cuBLAS resident: show its samples');
    // A lab of one size has no size column: its parameters say the size.
    expect(cublas.find('[data-metric="size"]').exists()).toBe(false);
    // A record of version 1 is read with its median's interval, computed from its samples (stored-record.ts).
    expect(figure('median')).toBe('14.57 ms ±0.2 %');
    expect([figure('rate'), figure('peak'), figure('speedup'), figure('samples')]).toEqual(['47.09 TFLOP/s', '70 %', '48.6×', '10']);
    expect(cublas.get('[data-metric="speedup"]').attributes('title')).toBe('48.6× over CPU BLAS');
    expect(wrapper.findAll('thead th').map((th) => th.attributes('aria-sort'))).toEqual(Array(7).fill('none'));
  });

  it('gives a sweep’s point its size, and its median its interval', () => {
    // The record as the app reads it: its statistics, the interval among them, computed again from its samples.
    const { record: recorded, lab } = fixtureRun('h100-elementwise-breakeven');
    const record = withCurrentFindings(recorded);
    const row = mountTable(record, lab).get('tr[data-key="add-gpu-transfers@100000"]');
    expect(row.get('[data-metric="size"]').text()).toBe('100 k');
    const stats = record.points.find((p) => p.key === 'add-gpu-transfers@100000')?.stats;
    const half = stats ? intervalHalfWidth(stats) : null;
    expect(half).not.toBeNull();
    expect(row.get('[data-metric="median"]').text()).toBe(`${formatMs(stats?.median ?? 0, 'en')} ±${formatPercent(half ?? 0, 'en')}`);
  });

  it('writes ✓ with its meaning in words for screen readers and on hover', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const mark = mountTable(record, lab).get('tr[data-key="gpu-cublas"] td.center > span');
    expect(mark.classes()).toContain('ok');
    expect(mark.get('[aria-hidden="true"]').text()).toBe('✓');
    expect(mark.get('.visually-hidden').text()).toBe('Result correct: relative error 1.7e-6, tolerance 4.0e-5');
    expect(mark.attributes('title')).toBe('Result correct: relative error 1.7e-6, tolerance 4.0e-5');
  });

  it('folds the waived points into a group whose reason is said once, and says why a failed point has no time', async () => {
    const cpu = fixtureRun('cpu-matmul');
    const cpuTable = mountTable(cpu.record, cpu.lab);
    expect(cpuTable.get('[data-testid="waived-note"]').text()).toMatch(/^4 points are waived, all for the same reason: no CUDA device: no NVIDIA driver is installed/);
    const group = cpuTable.get('[data-testid="group-waived"]');
    expect(group.text()).toBe('Waived: 4 points');
    expect(group.attributes('aria-expanded')).toBe('false');
    expect(cpuTable.find('tr[data-key="gpu-naive"]').exists()).toBe(false);
    await group.trigger('click');
    const waived = cpuTable.get('tr[data-key="gpu-naive"]');
    expect(waived.classes()).toContain('status-waived');
    // The reason is the note's: the row says only that it is waived.
    expect(waived.get('[data-metric="reason"]').text()).toBe('waived');
    // Two reasons: each row keeps its own.
    const mixed = mountTable(withPoint(cpu.record, 'gpu-naive', (p) => ({ ...p, reason: 'NVRTC is missing' })), cpu.lab);
    expect(mixed.find('[data-testid="waived-note"]').exists()).toBe(false);
    await mixed.get('[data-testid="group-waived"]').trigger('click');
    expect(mixed.get('tr[data-key="gpu-naive"] [data-metric="reason"]').text()).toBe('waived: NVRTC is missing');

    const h100 = fixtureRun('h100-matmul');
    const broken = mountTable(withPoint(h100.record, 'gpu-naive', (p) => failed(p)), h100.lab).get('tr[data-key="gpu-naive"]');
    expect(broken.classes()).toContain('status-failed');
    expect(broken.find('[data-metric="median"]').exists()).toBe(false);
    expect(broken.get('[data-metric="reason"]').text()).toContain('CUDA_ERROR_LAUNCH_FAILED');
  });

  it('marks a noisy median, in words for screen readers and on hover', () => {
    const { record, lab } = fixtureRun('h100-elementwise-breakeven');
    const table = mountTable(record, lab);
    const noisy = record.points.filter((p) => p.stats?.noisy).map((p) => p.key);
    expect(noisy.length).toBeGreaterThan(0);
    const drawn = table.findAll('tr.noisy').map((tr) => tr.attributes('data-key'));
    expect(drawn.length).toBeGreaterThan(0);
    expect(noisy).toEqual(expect.arrayContaining(drawn));
    // A median with its interval marks the interval and says it to screen readers: ±x % where it is about symmetric
    // (common/pure/format.ts), else its two ends as shares of the median, to fit the column.
    const flag = table.get('tr.noisy .interval.wide');
    expect(flag.attributes('title')).toMatch(/uncertain by more than ±5 %/);
    expect(flag.text()).toMatch(/^(±[\d.]+ %|−[\d.]+ % \+[\d.]+ %) \(noisy\)$/);
    // One whose interval could not be kept (a version 1 record whose samples were not all stored) says "noisy" in words.
    const withoutIntervals: RunRecord = { ...record, points: record.points.map((p) => (p.stats?.noisy ? { ...p, stats: { ...p.stats, ciLow: null, ciHigh: null } } : p)) };
    const words = mountTable(withoutIntervals, lab).get('tr.noisy .interval.wide');
    expect(words.attributes('title')).toMatch(/uncertain by more than ±5 %/);
    expect(words.text()).toBe('noisy');
  });

  it('sorts by a column from its header: smallest first, largest first, then the run’s order', async () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const wrapper = mountTable(record, lab);
    const order = (): string[] => wrapper.findAll('tbody tr[data-key]').map((tr) => tr.attributes('data-key') ?? '');
    const byMedian = [...record.points].sort((a, b) => (a.stats?.median ?? 0) - (b.stats?.median ?? 0)).map((p) => p.key);
    await wrapper.get('[data-sort="median"]').trigger('click');
    expect(order()).toEqual(byMedian);
    expect(wrapper.get('th[aria-sort="ascending"]').text()).toContain('Median');
    await wrapper.get('[data-sort="median"]').trigger('click');
    expect(order()).toEqual([...byMedian].reverse());
    await wrapper.get('[data-sort="median"]').trigger('click');
    expect(order()).toEqual(record.points.map((p) => p.key));
  });

  it('shows a point’s samples, in the order taken, at a click on its row', async () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const wrapper = mountTable(record, lab);
    expect(wrapper.find('[data-testid="point-samples"]').exists()).toBe(false);
    await wrapper.get('tr[data-key="cpu-blas"]').trigger('click');
    const cpu = record.points.find((p) => p.key === 'cpu-blas');
    const panel = wrapper.get('[data-testid="point-samples"]');
    expect(panel.findAll('[data-testid="sample-values"] li').map((li) => li.text())).toEqual(cpu?.hostMs.map((ms) => `${Number(ms.toPrecision(4))} ms`));
    expect(wrapper.get('tr[data-key="cpu-blas"] [data-testid="show-samples"]').attributes('aria-expanded')).toBe('true');
  });

  it('draws a screenful of a long run’s rows, and the box as tall as all of them', async () => {
    const { record, lab } = syntheticRun('elementwise-breakeven', { params: { minExponent: 1, pointsPerDecade: 4 } });
    const wrapper = mountTable(record, lab);
    const drawn = wrapper.findAll('tbody tr[data-key]');
    expect(drawn.length).toBeGreaterThan(10);
    expect(drawn.length).toBeLessThan(60);
    expect(wrapper.get('table').attributes('aria-rowcount')).toBe(String(record.points.length + 1));
    const spacer = wrapper.findAll('tr.spacer').at(-1);
    expect(Number.parseInt(spacer?.attributes('style')?.replace(/\D+/g, ' ').trim() ?? '0', 10)).toBe((record.points.length - drawn.length) * 36);
  });

  it('builds one row for each new point while 261 rows stream in, reusing the others', async () => {
    // 3 operations × 29 sizes (10¹ … 10⁸, four per decade) × 3 series.
    const { record, lab } = syntheticRun('elementwise-breakeven', { params: { minExponent: 1, pointsPerDecade: 4 } });
    expect(record.points).toHaveLength(261);
    const upTo = (n: number): RunRecord => ({ ...record, status: 'running', points: record.points.slice(0, n) });
    vi.useFakeTimers();
    const wrapper = mountTable(upTo(250), lab);
    expect(vi.mocked(resultRow)).toHaveBeenCalledTimes(250);
    for (let n = 251; n <= 261; n++) await wrapper.setProps({ record: upTo(n) });
    await flushPromises();
    // The first new point shows at once; the ten that follow within a quarter of a second come together at its end.
    expect(wrapper.get('table').attributes('data-rows')).toBe('251');
    await vi.advanceTimersByTimeAsync(250);
    expect(wrapper.get('table').attributes('data-rows')).toBe('261');
    expect(vi.mocked(resultRow)).toHaveBeenCalledTimes(261);
    vi.useRealTimers();
  });

  it('rebuilds a GPU row when its baseline arrives after it, so that its speedup appears', async () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const gpuFirst: RunRecord = { ...record, points: record.points.slice(1) };
    const wrapper = mountTable(gpuFirst, lab);
    const speedup = () => wrapper.get('tr[data-key="gpu-cublas"] [data-metric="speedup"]').text();
    expect(speedup()).toBe('—');
    await wrapper.setProps({ record: { ...gpuFirst, points: [...gpuFirst.points, ...record.points.slice(0, 1)] } });
    expect(speedup()).toBe('48.6×');
  });
});
