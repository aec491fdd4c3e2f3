// CompareView over the real stores, with the API faked at its module boundary: two runs of one lab get the overlaid
// chart, the ratios and their parameters side by side with the differences marked; runs of different labs are
// refused in words with both summaries still shown; a run that cannot be loaded is said.
import { flushPromises, mount, RouterLinkStub } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';

import { ApiError, errorText } from '../../../../renderer/api/api-error.ts';
import CompareView from '../../../../renderer/views/CompareView.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';

const drawn = vi.hoisted(() => ({ types: [] as string[] }));
vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({
  drawChart: (_canvas: unknown, config: { type: string }) => {
    drawn.types.push(config.type);
    return { type: config.type, update: () => true, destroy: () => undefined };
  },
}));

vi.mock('../../../../renderer/api/index.ts', () => ({
  api: {
    runs: {
      getRun: async (id: string) => {
        if (id === 'gone') throw new ApiError({ code: 'NOT_FOUND', message: 'no run gone' });
        return fixtureRun(id).record;
      },
    },
    labs: { listLabs: async () => labDescriptors() },
  },
  transport: { state: 'open', onState: () => () => undefined, on: () => () => undefined, call: () => Promise.reject(new Error('faked')) },
  ApiError,
  errorText,
}));

async function mountView(first: string, second: string) {
  const wrapper = mount(CompareView, { props: { first, second }, global: { plugins: [createPinia(), i18n], stubs: { RouterLink: RouterLinkStub } } });
  await flushPromises();
  return wrapper;
}

describe('CompareView', () => {
  it('overlays two runs of one lab, gives no ratio where their sizes differ, and marks the parameters that differ', async () => {
    drawn.types = [];
    const wrapper = await mountView('h100-matmul', 'cpu-matmul');
    // The lab and both runs, started minutes apart on one day: the day once with its year, both times, both devices.
    expect(wrapper.get('h1').text()).toMatch(/^Matrix product: run of \w+ \d+, 2026, \d+:\d\d [AP]M on cuda:0 vs run of \w+ \d+, \d+:\d\d [AP]M on the CPU$/);
    expect(wrapper.find('[data-testid="different-labs"]').exists()).toBe(false);
    expect(drawn.types).toEqual(['bar']);
    expect(wrapper.get('[data-testid="compare-chart"]').attributes('data-point-count')).toBe('6');
    const ratios = wrapper.findAll('[data-testid="compare-ratios"] tbody tr');
    expect(ratios).toHaveLength(5);
    // N = 7,000 against N = 1,500: the same point name, not the same work: no ratio, no verdict.
    expect(ratios[0]?.findAll('td').map((td) => td.text())).toEqual(['707.5 ms', '168.3 ms', '—', 'N = 7,000 vs N = 1,500: not comparable']);
    const n = wrapper.get('[data-testid="compare-params"] tr[data-param="n"]');
    expect(n.classes()).toContain('differs');
    expect(n.text()).toContain('differs');
    expect(wrapper.get('[data-testid="compare-params"] tr[data-param="repeats"]').classes()).not.toContain('differs');
  });

  it('refuses runs of different labs in words and still shows both side by side', async () => {
    drawn.types = [];
    const wrapper = await mountView('h100-matmul', 'h100-dtypes');
    expect(wrapper.get('h1').text()).toMatch(/^Matrix product, run of .+ on cuda:0, vs Data types, run of .+ on cuda:0$/);
    expect(wrapper.get('[data-testid="different-labs"]').text()).toContain('These runs are of different labs (Matrix product: CPU, GPU, and the cost of getting there and Data types: memory, speed and precision)');
    expect(drawn.types).toEqual([]);
    expect(wrapper.find('[data-testid="compare-ratios"]').exists()).toBe(false);
    const lab = wrapper.findAll('[data-testid="compare-facts"] tbody tr')[0];
    expect(lab?.findAll('td').map((td) => td.text())).toEqual(['Matrix product: CPU, GPU, and the cost of getting there', 'Data types: memory, speed and precision']);
    expect(wrapper.get('[data-testid="compare-params"] tr[data-param="dtypes"]').text()).toContain('fp64, fp32, tf32, fp16, bf16, int8');
  });

  it('says which run could not be loaded', async () => {
    const wrapper = await mountView('h100-matmul', 'gone');
    expect(wrapper.get('[role="alert"]').text()).toBe('Could not load run B: no run gone (NOT_FOUND)');
    expect(wrapper.find('[data-testid="compare-facts"]').exists()).toBe(false);
  });
});
