// The report of every lab, under the history's table: the devices runs were made on (the newest run's first), main's
// choice of run for each lab listed with the labs not run there, and one PDF asked of main for the device shown, with
// the author, course and language; a device with no finished run yet cannot be reported, and says so.
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { LabsReportContents } from '../../../../main/common/contract/reports.ts';
import { fileDay } from '../../../../main/common/pure/file-name.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import { LAB_IDS } from '../../../../main/common/lab-descriptor.ts';
import { emitRunEvent, labsApi, reportsApi, runsApi } from './fake-api.ts';
import { fixtureSummaries, mountHistory, runningSummary, summaryOf } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());

const fixtures = fixtureSummaries();
// Main's answer: on the GPU, the transfer and matmul runs only; on the CPU every lab.
function contents(device: string): LabsReportContents {
  const mine = fixtures.filter((s) => s.device === device && (device === 'cpu' || s.lab === 'transfer' || s.lab === 'matmul'));
  return { device, runs: mine, missing: LAB_IDS.filter((lab) => !mine.some((s) => s.lab === lab)) };
}

beforeEach(() => {
  runsApi.listRuns.mockResolvedValue(fixtures);
  reportsApi.labsReportContents.mockImplementation(async (device) => contents(device));
  reportsApi.writeLabsReport.mockResolvedValue({ filename: 'gpu-lab-labs-cpu-2026-11-23.pdf', mimeType: 'application/pdf', base64: 'JVBERi0=', pages: 30 });
  URL.createObjectURL = vi.fn(() => 'blob:labs-report-test');
  URL.revokeObjectURL = vi.fn();
  localStorage.clear();
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

describe('the report of every lab', () => {
  it('lists main’s run for each lab on the newest run’s device, and the labs not run there', async () => {
    const { wrapper } = await mountHistory();
    const panel = wrapper.get('[data-testid="labs-report"]');
    const select = panel.get<HTMLSelectElement>('[data-testid="labs-report-device"]');
    expect(select.findAll('option').map((o) => o.element.value)).toEqual(['cuda:0', 'cpu']);
    expect(select.element.value).toBe('cuda:0');
    expect(reportsApi.labsReportContents).toHaveBeenCalledWith('cuda:0');
    const rows = panel.findAll('tbody tr');
    expect(rows.map((r) => r.attributes('data-lab'))).toEqual([...LAB_IDS]);
    expect(rows.filter((r) => r.text().includes('Not run on this device'))).toHaveLength(6);
    expect(panel.get('tr[data-lab="matmul"] a').attributes('href')).toBe(`/runs/${summaryOf('h100-matmul.json').id}`);
    expect(panel.get('legend').text()).toBe('PDF of every lab (2 of 8 labs run)');
  });

  it('asks main for the PDF of the device shown, with the author, course and language', async () => {
    const { wrapper } = await mountHistory();
    const panel = wrapper.get('[data-testid="labs-report"]');
    await panel.get('[data-testid="labs-report-device"]').setValue('cpu');
    await flushPromises();
    // Every lab has a recorded CPU run but text-to-image, whose CPU runs are minutes long (tests/fixtures/runs).
    expect(panel.findAll('tbody tr').filter((r) => r.text().includes('Not run')).map((r) => r.attributes('data-lab'))).toEqual(['text-to-image']);
    await panel.get('[data-testid="report-author"]').setValue('Ana Pérez');
    await panel.get('[data-testid="report-course"]').setValue('GPU 2026');
    await panel.get('[data-testid="save-pdf"]').trigger('click');
    await flushPromises();
    expect(reportsApi.writeLabsReport).toHaveBeenCalledExactlyOnceWith({ device: 'cpu', author: 'Ana Pérez', course: 'GPU 2026', locale: 'en' });
    // Named for people, on the day it is saved.
    expect(panel.get('[data-testid="report-saved"]').text()).toBe(`Saved GPU Lab – every lab – cpu – ${fileDay(new Date().toISOString())}.pdf (30 pages).`);
  });

  it('cannot save a report of a device whose only run is still going, and says why', async () => {
    const running = { ...runningSummary(), device: 'cuda:1' };
    runsApi.listRuns.mockResolvedValue([...fixtures, running]);
    reportsApi.labsReportContents.mockImplementation(async (device) => (device === 'cuda:1' ? { device, runs: [], missing: [...LAB_IDS] } : contents(device)));
    const { wrapper } = await mountHistory();
    const panel = wrapper.get('[data-testid="labs-report"]');
    expect(panel.get<HTMLSelectElement>('[data-testid="labs-report-device"]').element.value).toBe('cuda:1');
    expect(panel.get('[data-testid="save-pdf"]').attributes('disabled')).toBeDefined();
    expect(panel.text()).toContain('No lab has a finished run on cuda:1 yet.');
  });

  it('keeps the newest answer when an older one for the same device arrives last', async () => {
    // The first question is answered late, with the list from before a run ended there.
    let late: (c: LabsReportContents) => void = () => undefined;
    reportsApi.labsReportContents.mockImplementationOnce(() => new Promise((resolve) => (late = resolve)));
    const { wrapper } = await mountHistory();
    const panel = wrapper.get('[data-testid="labs-report"]');
    const ended = { ...summaryOf('h100-dtypes.json'), createdAt: '2026-11-25T10:00:00.000Z' };
    runsApi.listRuns.mockResolvedValue([...fixtures, ended]);
    emitRunEvent({ kind: 'completed', runId: ended.id, summary: ended });
    await flushPromises();
    expect(reportsApi.labsReportContents.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(panel.get('legend').text()).toBe('PDF of every lab (2 of 8 labs run)');
    late({ device: 'cuda:0', runs: [], missing: [...LAB_IDS] });
    await flushPromises();
    expect(panel.get('legend').text()).toBe('PDF of every lab (2 of 8 labs run)');
    expect(panel.get('[data-testid="save-pdf"]').attributes('disabled')).toBeUndefined();
  });

  it('names the labs by main’s answer when the catalog cannot be read, and says so', async () => {
    labsApi.listLabs.mockRejectedValueOnce(new Error('the host went away'));
    const { wrapper } = await mountHistory();
    const panel = wrapper.get('[data-testid="labs-report"]');
    const rows = panel.findAll('tbody tr');
    // Main's order (its runs, then the labs without one); a run's lab by the title it was recorded with, the others by id.
    expect(rows.map((r) => r.get('th').text())).toEqual(['Matrix product', 'Host↔device transfers', 'dtypes', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls', 'text-to-image']);
    expect(panel.get('legend').text()).toBe('PDF of every lab (2 of 8 labs run)');
    expect(panel.get('[role="alert"]').text()).toContain('The labs could not be read');
    // Restored for the other tests: the catalog is fetched once per store.
    labsApi.listLabs.mockImplementation(async () => labDescriptors('en'));
  });
});
