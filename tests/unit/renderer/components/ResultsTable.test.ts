// ResultsTable: one row per point with the figures right-aligned, ✓/✗ with words for screen readers, waived, failed
// and noisy rows marked, a caption; and while a run streams, a new point builds one new row, not all of them.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { RunRecord } from '../../../../main/common/run-record.ts';
import type * as ResultRows from '../../../../renderer/charts/result-rows.ts';
import { resultRow } from '../../../../renderer/charts/result-rows.ts';
import ResultsTable from '../../../../renderer/components/results/ResultsTable.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { failed, fixtureRun, syntheticRun, withPoint } from '../charts/synthetic-runs.ts';

vi.mock('../../../../renderer/charts/result-rows.ts', async (original) => {
  const real = await original<typeof ResultRows>();
  return { ...real, resultRow: vi.fn(real.resultRow) };
});

beforeEach(() => {
  vi.mocked(resultRow).mockClear();
});

function mountTable(record: RunRecord, lab: ReturnType<typeof fixtureRun>['lab']) {
  return mount(ResultsTable, { props: { record, lab }, global: { plugins: [createPinia(), i18n] } });
}

describe('ResultsTable', () => {
  it('shows every point with its figures, right-aligned, under a caption', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const wrapper = mountTable(record, lab);
    expect(wrapper.get('caption').text()).toMatch(/^Every point of the run/);
    const rows = wrapper.findAll('tbody tr');
    expect(rows).toHaveLength(5);
    const cublas = wrapper.get('tr[data-key="gpu-cublas"]');
    // The point names its device under it.
    expect(cublas.get('th .point-label').text()).toBe('GPU cuBLAS resident, N = 7000');
    expect(cublas.get('th .device').text()).toBe('cuda:0');
    const figure = (metric: string): string => cublas.get(`td[data-metric="${metric}"]`).text();
    expect(figure('median')).toBe('14.57 ms');
    // The spread: the median's interval (a record from before intervals: none), then the samples' IQR and range.
    expect(cublas.get('[data-metric="spread"] .interval').text()).toBe('— (Median’s 95 % CI)');
    expect(cublas.findAll('[data-metric="spread"] .sample-spread').map((s) => s.text())).toEqual(['IQR 7.04 µs', '14.56 ms – 14.59 ms']);
    expect(figure('samples')).toBe('10');
    expect([figure('rate'), figure('peak')]).toEqual(['47.09 TFLOP/s', '70 %']);
    expect(figure('speedup')).toBe('48.6× over CPU BLAS');
    expect(cublas.findAll('td.num')).toHaveLength(6);
    expect(wrapper.findAll('thead th.num')).toHaveLength(6);
    // Each figure carries its name, which the stacked rows of a narrow table show beside it.
    expect(cublas.findAll('td').map((td) => td.attributes('data-label'))).toEqual(['Median', 'Spread', 'Samples', 'Rate', '% of peak', 'Speedup', 'Verified']);
  });

  it('writes ✓ with its meaning in words for screen readers and on hover', () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const mark = mountTable(record, lab).get('tr[data-key="gpu-cublas"] td.center > span');
    expect(mark.classes()).toContain('ok');
    expect(mark.get('[aria-hidden="true"]').text()).toBe('✓');
    expect(mark.get('.visually-hidden').text()).toBe('Result correct: relative error 1.7e-6, tolerance 4.0e-5');
    expect(mark.attributes('title')).toBe('Result correct: relative error 1.7e-6, tolerance 4.0e-5');
  });

  it('marks waived and failed rows with their reason, and noisy medians', () => {
    // Every GPU point of a CPU-only run is waived for one reason: said once above the table, each row marked.
    const cpu = fixtureRun('cpu-matmul');
    const cpuTable = mountTable(cpu.record, cpu.lab);
    const waived = cpuTable.get('tr[data-key="gpu-naive"]');
    expect(waived.classes()).toContain('waived');
    expect(waived.text()).toContain('waived');
    expect(waived.text()).not.toContain('no CUDA device');
    expect(cpuTable.get('[data-testid="waived-note"]').text()).toMatch(/^4 points are waived, all for the same reason: no CUDA device: no NVIDIA driver is installed/);
    // Two reasons: each row keeps its own.
    const mixed = withPoint(cpu.record, 'gpu-naive', (p) => ({ ...p, reason: 'NVRTC is missing' }));
    const mixedTable = mountTable(mixed, cpu.lab);
    expect(mixedTable.find('[data-testid="waived-note"]').exists()).toBe(false);
    expect(mixedTable.get('tr[data-key="gpu-naive"]').text()).toContain('NVRTC is missing');

    const h100 = fixtureRun('h100-matmul');
    const broken = mountTable(withPoint(h100.record, 'gpu-naive', (p) => failed(p)), h100.lab).get('tr[data-key="gpu-naive"]');
    expect(broken.classes()).toContain('failed');
    expect(broken.findAll('td.num')[0]?.text()).toBe('—');
    expect(broken.text()).toContain('CUDA_ERROR_LAUNCH_FAILED');

    const noisyRun = fixtureRun('h100-elementwise-breakeven');
    const table = mountTable(noisyRun.record, noisyRun.lab);
    const noisy = noisyRun.record.points.filter((p) => p.stats?.noisy).map((p) => p.key);
    expect(table.findAll('tr.noisy').map((tr) => tr.attributes('data-key'))).toEqual(noisy);
    expect(table.get('tr.noisy .noisy-flag').attributes('title')).toMatch(/uncertain by more than ±5 %/);
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
    expect(wrapper.findAll('tbody tr')).toHaveLength(251);
    await vi.advanceTimersByTimeAsync(250);
    expect(wrapper.findAll('tbody tr')).toHaveLength(261);
    expect(vi.mocked(resultRow)).toHaveBeenCalledTimes(261);
    vi.useRealTimers();
  });

  it('rebuilds a GPU row when its baseline arrives after it, so that its speedup appears', async () => {
    const { record, lab } = fixtureRun('h100-matmul');
    const gpuFirst: RunRecord = { ...record, points: record.points.slice(1) };
    const wrapper = mountTable(gpuFirst, lab);
    const speedup = () => wrapper.get('tr[data-key="gpu-cublas"] td[data-metric="speedup"]').text();
    expect(speedup()).toBe('—');
    await wrapper.setProps({ record: { ...gpuFirst, points: [...gpuFirst.points, ...record.points.slice(0, 1)] } });
    expect(speedup()).toBe('48.6× over CPU BLAS');
  });
});
