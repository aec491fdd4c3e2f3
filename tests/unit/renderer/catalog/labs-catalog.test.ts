// The labs catalog on the recorded fixtures: each card's thumbnail is the chart of its lab's newest completed run
// (never a newer run still going, cancelled or failed, never an older one), drawn small with nothing to point at,
// only once the card nears the viewport, and destroyed with the page; a lab without a finished run has no grey box
// but says what it measures, the most its run with the defaults takes on the chosen device (main's bound), and the
// first of them in the course is marked as where to start. Chart.js is replaced at its module boundary
// (chart-setup.ts).
import { flushPromises, mount, RouterLinkStub } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { summarizeRun } from '../../../../main/common/run-record.ts';
import type { RunRecord, RunSummary } from '../../../../main/common/run-record.ts';
import type { RunChartConfig } from '../../../../main/common/pure/charts/chart-common.ts';
import { runChart } from '../../../../main/common/pure/charts/run-chart.ts';
import { lastFinishedRuns } from '../../../../renderer/components/catalog/last-runs.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useDevicesStore } from '../../../../renderer/stores/devices.ts';
import { useLabsStore } from '../../../../renderer/stores/labs.ts';
import LabsCatalogView from '../../../../renderer/views/LabsCatalogView.vue';
import { fixtureRun, inputs } from '../charts/synthetic-runs.ts';
import { labsApi, runsApi } from '../history/fake-api.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('../history/fake-api.ts')).apiModule());

const charts = vi.hoisted(() => {
  const log: { drawn: { canvas: unknown; config: unknown }[]; destroyed: number } = { drawn: [], destroyed: 0 };
  return {
    log,
    drawChart: (canvas: unknown, config: { type: string }) => {
      log.drawn.push({ canvas, config });
      return { type: config.type, update: () => false, destroy: () => void log.destroyed++ };
    },
  };
});
vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({ drawChart: charts.drawChart }));

// IntersectionObserver as the test drives it: `showAll()` brings every observed card into view.
const observed = vi.hoisted(() => ({ callbacks: new Map<Element, (entries: { isIntersecting: boolean }[]) => void>() }));
class FakeIntersectionObserver {
  private readonly elements = new Set<Element>();
  private readonly callback: (entries: { isIntersecting: boolean }[]) => void;
  constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
    this.callback = callback;
  }
  observe(element: Element): void {
    this.elements.add(element);
    observed.callbacks.set(element, this.callback);
  }
  disconnect(): void {
    for (const e of this.elements) observed.callbacks.delete(e);
    this.elements.clear();
  }
}
function showAll(): void {
  for (const callback of [...observed.callbacks.values()]) callback([{ isIntersecting: true }]);
}

// The recorded H100 machine's CPU and GPU.
const [CPU, GPU] = fixtureRun('h100-matmul').record.environment.devices?.devices ?? [];
if (!CPU || !GPU) throw new Error('the H100 fixture lists its CPU and its GPU');
const { record: h100Transfer, lab: transferLab } = fixtureRun('h100-transfer');
const { record: cpuTransfer } = fixtureRun('cpu-transfer');
const { record: h100Dtypes, lab: dtypesLab } = fixtureRun('h100-dtypes');
const records = new Map<string, RunRecord>([h100Transfer, cpuTransfer, h100Dtypes].map((r) => [r.id, r]));

// transfer: the H100's completed run is its newest finished one; a later run still going, a later one cancelled and
// an earlier CPU run are not. dtypes: its H100 run. matmul: only a failed run, so nothing finished.
const summaries: RunSummary[] = [
  { ...summarizeRun(h100Transfer), id: 'transfer-running', status: 'running', createdAt: '2026-11-24T10:00:00.000Z', finishedAt: null, points: 3 },
  { ...summarizeRun(h100Transfer), id: 'transfer-cancelled', status: 'cancelled', createdAt: '2026-11-24T09:00:00.000Z', points: 12 },
  summarizeRun(cpuTransfer),
  summarizeRun(h100Transfer),
  summarizeRun(h100Dtypes),
  { ...summarizeRun(fixtureRun('h100-matmul').record), id: 'matmul-failed', status: 'failed', points: 0, errorCode: 'KERNEL_FAILED' },
];

beforeEach(() => {
  charts.log.drawn = [];
  charts.log.destroyed = 0;
  observed.callbacks.clear();
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  runsApi.getRun.mockImplementation(async (id) => {
    const record = records.get(id);
    if (!record) throw new Error(`the catalog asked for run ${id}`);
    return record;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

async function mountCatalog(list: RunSummary[] = summaries) {
  runsApi.listRuns.mockResolvedValue(list);
  const pinia = createPinia();
  const wrapper = mount(LabsCatalogView, { global: { plugins: [pinia, i18n], stubs: { RouterLink: RouterLinkStub } } });
  await useLabsStore(pinia).load();
  await flushPromises();
  return wrapper;
}

const drawnConfigs = (): RunChartConfig[] => charts.log.drawn.map((d) => d.config as RunChartConfig);
const card = (wrapper: Awaited<ReturnType<typeof mountCatalog>>, lab: string) => wrapper.get(`[data-testid="lab-card-${lab}"]`);

describe('a lab’s last finished run', () => {
  it('is its newest completed run with points, whatever the order of the list', () => {
    const byLab = lastFinishedRuns(summaries);
    expect(byLab.get('transfer')?.id).toBe(h100Transfer.id);
    expect(byLab.get('dtypes')?.id).toBe(h100Dtypes.id);
    expect(byLab.has('matmul')).toBe(false);
    expect(lastFinishedRuns([...summaries].reverse()).get('transfer')?.id).toBe(h100Transfer.id);
  });
});

describe('the catalog’s thumbnails', () => {
  it('fetch nothing and draw nothing until the cards come near the viewport', async () => {
    await mountCatalog();
    expect(runsApi.getRun).not.toHaveBeenCalled();
    expect(charts.log.drawn).toEqual([]);
  });

  it('draw the chart of each lab’s last finished run, as the run page builds it', async () => {
    const wrapper = await mountCatalog();
    showAll();
    await flushPromises();
    expect(runsApi.getRun.mock.calls.map(([id]) => id).sort()).toEqual([h100Dtypes.id, h100Transfer.id].sort());
    expect(drawnConfigs().map((c) => c.type)).toEqual(['line', 'bar']);
    const [transfer, dtypes] = drawnConfigs();
    // The H100 transfer run's series and points, the same the run page draws (not the CPU run's).
    const points = (config: RunChartConfig | undefined) => config?.data.datasets.map((ds) => ds.data);
    expect(points(transfer)).toEqual(points(runChart(h100Transfer, transferLab, inputs).config));
    expect(points(dtypes)).toEqual(points(runChart(h100Dtypes, dtypesLab, inputs).config));
    expect(card(wrapper, 'transfer').find('canvas').exists()).toBe(true);
  });

  it('are pictures only: no events, legend, tooltip, animation, tick labels or axis titles, and hidden from screen readers', async () => {
    const wrapper = await mountCatalog();
    showAll();
    await flushPromises();
    expect(drawnConfigs()).toHaveLength(2);
    for (const config of drawnConfigs()) {
      const options = config.options ?? {};
      expect(options.events).toEqual([]);
      expect(options.animation).toBe(false);
      expect(options.plugins?.legend?.display).toBe(false);
      expect(options.plugins?.tooltip?.enabled).toBe(false);
      expect(options.plugins?.title?.display).toBe(false);
      for (const scale of Object.values(options.scales ?? {})) {
        expect(scale?.ticks?.display).toBe(false);
        expect(scale && 'title' in scale ? scale.title?.display : false).toBe(false);
        // Nor the room a chart of rows keeps for the names it does not show.
        expect(scale && 'afterFit' in scale ? scale.afterFit : undefined).toBeUndefined();
      }
      // The break-even lines stay; their words do not.
      expect((options.plugins?.runMarks?.vertical ?? []).every((m) => m?.label === '')).toBe(true);
      expect(options.plugins?.runMarks?.barLabels ?? []).toEqual([]);
    }
    expect(card(wrapper, 'transfer').get('[data-testid="lab-thumbnail"]').attributes('aria-hidden')).toBe('true');
  });

  it('say so instead of drawing when the last run drew nothing (a CPU run of a lab of GPU series)', async () => {
    const wrapper = await mountCatalog([summarizeRun(cpuTransfer)]);
    showAll();
    await flushPromises();
    expect(runsApi.getRun).toHaveBeenCalledWith(cpuTransfer.id);
    expect(charts.log.drawn).toEqual([]);
    expect(card(wrapper, 'transfer').get('[data-testid="lab-thumbnail"]').text()).toBe('Nothing to draw from its last run');
    expect(card(wrapper, 'transfer').get('[data-testid="lab-last-run"]').text()).toBe('Last run Nov 23, 2026 on the CPU');
  });

  it('are destroyed with the page', async () => {
    const wrapper = await mountCatalog();
    showAll();
    await flushPromises();
    expect(charts.log.drawn).toHaveLength(2);
    wrapper.unmount();
    expect(charts.log.destroyed).toBe(2);
  });
});

describe('a lab’s card', () => {
  it('says when and on which device the lab last ran, or that it has not run', async () => {
    const wrapper = await mountCatalog();
    showAll();
    await flushPromises();
    expect(card(wrapper, 'transfer').get('[data-testid="lab-last-run"]').text()).toBe('Last run Nov 23, 2026 on cuda:0');
    expect(card(wrapper, 'matmul').get('[data-testid="lab-last-run"]').text()).toBe('Not run yet');
    expect(card(wrapper, 'matmul').find('canvas').exists()).toBe(false);
    expect(card(wrapper, 'matmul').text()).toContain('Lab 3');
  });

  it('without a run: no grey box, but what the lab measures, the most its defaults take on the chosen device, and where to start', async () => {
    labsApi.timeBounds.mockImplementation(async (device) =>
      device === 'cuda:0' ? [{ lab: 'matmul', atMostSeconds: 77.4 }, { lab: 'vector-function', atMostSeconds: 12.2 }, { lab: 'elementwise-breakeven', atMostSeconds: 3725 }] : [],
    );
    const wrapper = await mountCatalog();
    useDevicesStore().list = { devices: [CPU, GPU], cudaReason: null, blas: 'OpenBLAS' };
    await flushPromises();
    for (const lab of ['matmul', 'vector-function', 'elementwise-breakeven']) expect(card(wrapper, lab).find('[data-testid="lab-thumbnail"]').exists(), lab).toBe(false);
    expect(labsApi.timeBounds).toHaveBeenCalledWith('cuda:0');
    const matmul = card(wrapper, 'matmul').get('[data-testid="lab-preview"]');
    expect(matmul.text()).toContain('Measures the time of each of its 5 series.');
    // An upper bound rounds up: 77.4 s is at most 2 min.
    expect(matmul.get('[data-testid="lab-at-most"]').text()).toBe('At most 2 min with its defaults on cuda:0');
    expect(card(wrapper, 'vector-function').get('[data-testid="lab-at-most"]').text()).toBe('At most 13 s with its defaults on cuda:0');
    expect(card(wrapper, 'elementwise-breakeven').get('[data-testid="lab-preview"]').text()).toContain('Measures the GPU’s speedup over the CPU against the array size.');
    expect(card(wrapper, 'elementwise-breakeven').get('[data-testid="lab-at-most"]').text()).toBe('At most 1 h 3 min with its defaults on cuda:0');
    // transfer and dtypes have finished runs: matmul, the third lab, is the first to run.
    expect(wrapper.findAll('[data-testid="start-here"]').map((b) => b.element.closest('[data-testid^="lab-card-"]')?.getAttribute('data-testid'))).toEqual(['lab-card-matmul']);
  });

  it('asks again for the device picked in the rail, and says so of the CPU', async () => {
    labsApi.timeBounds.mockImplementation(async (device) => (device === 'cpu' ? [{ lab: 'matmul', atMostSeconds: 30 }, { lab: 'transfer', atMostSeconds: 0 }] : []));
    const wrapper = await mountCatalog([]);
    const devices = useDevicesStore();
    devices.list = { devices: [CPU, GPU], cudaReason: null, blas: 'OpenBLAS' };
    devices.select('cpu');
    await flushPromises();
    expect(card(wrapper, 'matmul').get('[data-testid="lab-at-most"]').text()).toBe('At most 30 s with its defaults on the CPU');
    expect(card(wrapper, 'transfer').get('[data-testid="lab-at-most"]').text()).toBe('Nothing to measure on the CPU: its series need a GPU, or a Python library this machine lacks');
    // No run at all: the first lab of the course.
    expect(card(wrapper, 'transfer').find('[data-testid="start-here"]').exists()).toBe(true);
  });

  it('is one link to its lab, named by the lab’s title and described by its summary and last run', async () => {
    const wrapper = await mountCatalog();
    const link = card(wrapper, 'transfer').getComponent(RouterLinkStub);
    expect(link.props('to')).toBe('/labs/transfer');
    expect(link.text()).toBe('Host↔device transfers: bandwidth, latency and pinned memory');
    const described = (link.attributes('aria-describedby') ?? '').split(' ').map((id) => wrapper.get(`[id="${id}"]`).text());
    expect(described).toEqual([transferLab.summary, 'Last run Nov 23, 2026 on cuda:0']);
  });
});
