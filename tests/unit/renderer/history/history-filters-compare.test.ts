// Narrowing the history by lab and device, kept in the URL's query so a reload or a shared link shows the same
// runs; and picking two runs to compare.
import { flushPromises } from '@vue/test-utils';
import type { VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { runsApi } from './fake-api.ts';
import { fixtureSummaries, mountHistory, row, rowIds, summaryOf } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());

const fixtures = fixtureSummaries();
const h100Matmul = summaryOf('h100-matmul.json');
const cpuMatmul = summaryOf('cpu-matmul.json');
const h100Transfer = summaryOf('h100-transfer.json');

beforeEach(() => {
  runsApi.listRuns.mockResolvedValue(fixtures);
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

function options(wrapper: VueWrapper, testid: string): string[] {
  return wrapper.get(`[data-testid="${testid}"]`).findAll('option').map((o) => o.text());
}

describe('filtering the history', () => {
  it('offers the labs and devices the runs have, and narrows the list to the choice, kept in the query', async () => {
    const { wrapper, router } = await mountHistory();
    expect(options(wrapper, 'filter-device')).toEqual(['All devices', 'cpu (CPU only)', 'cuda:0']);
    expect(options(wrapper, 'filter-lab')).toHaveLength(8);
    expect(options(wrapper, 'filter-lab')).toContain('Matrix product: CPU, GPU, and the cost of getting there');

    await wrapper.get('[data-testid="filter-lab"]').setValue('matmul');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ lab: 'matmul' });
    expect(rowIds(wrapper)).toEqual([h100Matmul.id, cpuMatmul.id]);
    expect(wrapper.get('[data-testid="run-count"]').text()).toBe('2 of 14 runs');

    await wrapper.get('[data-testid="filter-device"]').setValue('cuda:0');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ lab: 'matmul', device: 'cuda:0' });
    expect(rowIds(wrapper)).toEqual([h100Matmul.id]);
    expect(wrapper.get('[data-testid="run-count"]').text()).toBe('1 of 14 runs');

    await wrapper.get('[data-testid="filter-lab"]').setValue('');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ device: 'cuda:0' });
    expect(rowIds(wrapper)).toHaveLength(7);
  });

  it('opens with the filters of the link it was opened with', async () => {
    const { wrapper } = await mountHistory('/runs?lab=matmul&device=cpu');
    expect((wrapper.get('[data-testid="filter-lab"]').element as HTMLSelectElement).value).toBe('matmul');
    expect((wrapper.get('[data-testid="filter-device"]').element as HTMLSelectElement).value).toBe('cpu');
    expect(rowIds(wrapper)).toEqual([cpuMatmul.id]);
  });

  it('says when no run matches, and shows them all again on request', async () => {
    const { wrapper, router } = await mountHistory('/runs?lab=matmul&device=cuda:7');
    expect(wrapper.get('[data-testid="no-match"]').text()).toContain('No run matches these filters.');
    expect(wrapper.get('[data-testid="run-count"]').text()).toBe('0 of 14 runs');
    await wrapper.get('[data-testid="no-match"] button').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({});
    expect(rowIds(wrapper)).toHaveLength(14);
  });
});

describe('picking runs to compare', () => {
  async function pick(wrapper: VueWrapper, id: string, checked = true): Promise<void> {
    await row(wrapper, id).get('[data-testid="pick-run"]').setValue(checked);
    await flushPromises();
  }

  it('enables Compare once two runs are picked and opens /compare/first/second', async () => {
    const { wrapper, router } = await mountHistory();
    const compare = wrapper.get<HTMLButtonElement>('[data-testid="compare-button"]');
    expect(compare.element.disabled).toBe(true);
    await pick(wrapper, cpuMatmul.id);
    expect(compare.element.disabled).toBe(true);
    await pick(wrapper, h100Matmul.id);
    expect(compare.element.disabled).toBe(false);
    expect(wrapper.get('[data-testid="compare-note"]').text()).toContain('same lab');
    await compare.trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.path).toBe(`/compare/${cpuMatmul.id}/${h100Matmul.id}`);
  });

  it('refuses a third pick with a message, and says that runs of different labs get no overlaid charts', async () => {
    const { wrapper } = await mountHistory();
    await pick(wrapper, cpuMatmul.id);
    await pick(wrapper, h100Transfer.id);
    expect(wrapper.get('[data-testid="compare-note"]').text()).toContain('draws overlaid charts only for two runs of the same lab');

    await pick(wrapper, h100Matmul.id);
    expect(wrapper.get('[data-testid="compare-refusal"]').text()).toContain('Two runs are already picked');
    expect((row(wrapper, h100Matmul.id).get('[data-testid="pick-run"]').element as HTMLInputElement).checked).toBe(false);
    expect(wrapper.get('[data-testid="compare-bar"]').findAll('li')).toHaveLength(2);

    await pick(wrapper, cpuMatmul.id, false);
    await pick(wrapper, h100Matmul.id);
    expect(wrapper.get('[data-testid="compare-refusal"]').text()).toBe('');
    expect(wrapper.get('[data-testid="compare-note"]').text()).toContain('different labs');
    expect(wrapper.get('[data-testid="compare-bar"]').findAll('li').map((li) => li.text())).toEqual([
      expect.stringContaining('Host↔device transfers'),
      expect.stringContaining('Matrix product'),
    ]);
  });
});
