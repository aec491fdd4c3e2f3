// RunChart with Chart.js replaced at its module boundary (chart-setup.ts): one chart drawn on mount, redrawn in place
// at most once per animation frame as the record is replaced point by point, destroyed on unmount; the wrapper
// counts the points drawn, the canvas is an image with a description, and the notes say what is missing.
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { RunRecord } from '../../../../main/common/run-record.ts';
import type { RunChartConfig } from '../../../../main/common/pure/charts/chart-common.ts';
import RunChart from '../../../../renderer/components/charts/RunChart.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';

const charts = vi.hoisted(() => {
  const log: { drawn: string[]; updates: number; destroyed: number; last: unknown } = { drawn: [], updates: 0, destroyed: 0, last: null };
  return {
    log,
    drawChart: (_canvas: unknown, config: { type: 'line' | 'bar' }) => {
      log.drawn.push(config.type);
      log.last = config;
      return {
        type: config.type,
        update(next: { type: string }) {
          if (next.type !== config.type) return false;
          log.updates++;
          log.last = next;
          return true;
        },
        destroy() {
          log.destroyed++;
        },
      };
    },
  };
});
vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({ drawChart: charts.drawChart }));

let frames: FrameRequestCallback[] = [];
function nextFrame(): void {
  const due = frames;
  frames = [];
  for (const f of due) f(performance.now());
}

beforeEach(() => {
  Object.assign(charts.log, { drawn: [], updates: 0, destroyed: 0, last: null });
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => {
    frames = [];
  });
});
afterEach(() => vi.unstubAllGlobals());

function mountChart(record: RunRecord, lab: ReturnType<typeof fixtureRun>['lab']) {
  return mount(RunChart, { props: { record, lab }, global: { plugins: [createPinia(), i18n] } });
}

// The record as it stands after its first `n` points arrived.
function upTo(record: RunRecord, n: number): RunRecord {
  return { ...record, status: 'running', summary: {}, points: record.points.slice(0, n) };
}

describe('RunChart', () => {
  it('draws once on mount, counts the points drawn, and describes itself', async () => {
    const { record, lab } = fixtureRun('h100-transfer');
    const wrapper = mountChart(record, lab);
    await flushPromises();
    expect(charts.log.drawn).toEqual(['line']);
    expect(wrapper.get('[data-testid="run-chart"]').attributes('data-point-count')).toBe('99');
    const canvas = wrapper.get('canvas');
    expect(canvas.attributes('role')).toBe('img');
    expect(canvas.attributes('aria-label')).toContain('Bandwidth in GB/s (higher is faster) against Copy size (log scale), 99 points drawn in 9 series.');
  });

  it('shows the notes under the chart: how to read it, the waived series and why', async () => {
    const { record, lab } = fixtureRun('cpu-matmul');
    const wrapper = mountChart(record, lab);
    await flushPromises();
    const notes = wrapper.findAll('.chart-notes li').map((li) => li.text());
    expect(notes).toEqual([
      'Bar: median of the samples. Whiskers: fastest to slowest sample (min to max).',
      'Waived (no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)): GPU cuBLAS with transfers; GPU cuBLAS resident; GPU tiled kernel; GPU naive kernel.',
    ]);
  });

  it('says "yet" under the chart while the run goes on, and drops it for what happened when the run ends', async () => {
    const { record, lab } = fixtureRun('cpu-elementwise-breakeven');
    const wrapper = mountChart({ ...record, status: 'running' }, lab);
    await flushPromises();
    const notes = () => wrapper.findAll('.chart-notes li').map((li) => li.text());
    expect(notes()[1]).toMatch(/^No GPU series has a measured point yet/);
    // The run ended: the stored record replaces the live one.
    await wrapper.setProps({ record });
    nextFrame();
    await flushPromises();
    expect(notes()[1]).toMatch(/^No GPU series was measured: no CUDA device/);
    expect(notes().join(' ')).not.toMatch(/\byet\b/);
  });

  it('follows a streaming record with one in-place update per frame, however many points arrive in it', async () => {
    const { record, lab } = fixtureRun('h100-transfer');
    const wrapper = mountChart(upTo(record, 1), lab);
    await flushPromises();
    const count = () => wrapper.get('[data-testid="run-chart"]').attributes('data-point-count');
    expect(count()).toBe('1');
    for (const n of [2, 3, 4]) await wrapper.setProps({ record: upTo(record, n) });
    // Three records arrived within one frame: nothing is redrawn before it.
    expect(charts.log.updates).toBe(0);
    expect(frames).toHaveLength(1);
    nextFrame();
    await flushPromises();
    expect(charts.log.updates).toBe(1);
    expect(count()).toBe('4');
    await wrapper.setProps({ record: upTo(record, 10) });
    nextFrame();
    await flushPromises();
    expect(count()).toBe('10');
    expect(charts.log.updates).toBe(2);
    // Never re-created: the same chart took the new data.
    expect(charts.log.drawn).toEqual(['line']);
    expect(charts.log.destroyed).toBe(0);
    const last = charts.log.last as RunChartConfig;
    expect(last.type === 'line' && last.data.datasets.filter((d) => d.label !== '').flatMap((d) => d.data).filter((p) => Number.isFinite(p.y))).toHaveLength(10);
  });

  it('draws a new chart only when the kind of chart changes, and destroys its chart on unmount', async () => {
    const sweep = fixtureRun('h100-transfer');
    const bars = fixtureRun('h100-matmul');
    const wrapper = mountChart(sweep.record, sweep.lab);
    await flushPromises();
    await wrapper.setProps({ record: bars.record, lab: bars.lab });
    nextFrame();
    await flushPromises();
    expect(charts.log.drawn).toEqual(['line', 'bar']);
    expect(charts.log.destroyed).toBe(1);
    await wrapper.setProps({ record: sweep.record, lab: sweep.lab });
    wrapper.unmount();
    // The frame asked for before unmounting is cancelled with the chart.
    expect(frames).toHaveLength(0);
    expect(charts.log.destroyed).toBe(2);
  });
});
