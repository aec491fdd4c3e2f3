// What can be done to a stored run from the history: delete it after a confirmation that names it (never while it
// runs, and main's refusal shown as main worded it), export it in each of main's three formats, and import runs
// (offered only to whoever may import on this server).
import { flushPromises } from '@vue/test-utils';
import type { VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../../renderer/api/api-error.ts';
import { useSessionStore } from '../../../../renderer/stores/session.ts';
import { classroomApi, runsApi } from './fake-api.ts';
import { fixtureSummaries, mountHistory, row, rowIds, runningSummary, summaryOf } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());

const fixtures = fixtureSummaries();
const matmul = summaryOf('h100-matmul.json');
const startedText = new Date(matmul.createdAt).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });

beforeEach(() => {
  runsApi.listRuns.mockResolvedValue(fixtures);
  runsApi.deleteRun.mockResolvedValue();
  runsApi.exportRun.mockImplementation(async (runId, format) => ({ filename: `${runId}.${format}`, mimeType: 'text/plain', text: 'data' }));
  // The download link's blob URL: happy-dom has no object URLs to hand out.
  URL.createObjectURL = vi.fn(() => 'blob:history-test');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

function dialog(wrapper: VueWrapper) {
  return wrapper.get<HTMLDialogElement>('[data-testid="delete-dialog"]');
}

describe('deleting a run', () => {
  it('asks first, naming the run, then deletes that run in main and removes its row', async () => {
    const { wrapper } = await mountHistory();
    const button = row(wrapper, matmul.id).get('[data-testid="delete-run"]');
    expect(button.attributes('aria-label')).toBe(`Delete run Matrix product of ${startedText}`);
    await button.trigger('click');
    await flushPromises();
    expect(dialog(wrapper).element.open).toBe(true);
    expect(dialog(wrapper).text()).toContain(`The run Matrix product of ${startedText} on cuda:0, with its 5 points, will be deleted`);
    expect(runsApi.deleteRun).not.toHaveBeenCalled();

    await dialog(wrapper).get('[data-testid="confirm-delete"]').trigger('click');
    await flushPromises();
    expect(runsApi.deleteRun).toHaveBeenCalledExactlyOnceWith(matmul.id);
    expect(rowIds(wrapper)).not.toContain(matmul.id);
    expect(rowIds(wrapper)).toHaveLength(13);
    expect(dialog(wrapper).element.open).toBe(false);
    expect(wrapper.get('[data-testid="history-notice"]').text()).toBe(`Deleted the run Matrix product of ${startedText}.`);
  });

  it('keeps the run when the confirmation is declined', async () => {
    const { wrapper } = await mountHistory();
    await row(wrapper, matmul.id).get('[data-testid="delete-run"]').trigger('click');
    await flushPromises();
    await dialog(wrapper).get('[data-testid="keep-run"]').trigger('click');
    await flushPromises();
    expect(dialog(wrapper).element.open).toBe(false);
    expect(runsApi.deleteRun).not.toHaveBeenCalled();
    expect(rowIds(wrapper)).toContain(matmul.id);
  });

  it('shows main’s refusal with its message and keeps the row', async () => {
    runsApi.deleteRun.mockRejectedValueOnce(new ApiError({ code: 'INVALID_ARGUMENT', message: `Run ${matmul.id} is in progress: cancel it before deleting it` }));
    const { wrapper } = await mountHistory();
    await row(wrapper, matmul.id).get('[data-testid="delete-run"]').trigger('click');
    await flushPromises();
    await dialog(wrapper).get('[data-testid="confirm-delete"]').trigger('click');
    await flushPromises();
    expect(dialog(wrapper).get('[data-testid="delete-error"]').text()).toBe(
      `The run was not deleted: Run ${matmul.id} is in progress: cancel it before deleting it (INVALID_ARGUMENT)`,
    );
    expect(dialog(wrapper).element.open).toBe(true);
    expect(rowIds(wrapper)).toContain(matmul.id);
  });

  it('cannot delete a run in progress, and says why', async () => {
    const running = runningSummary();
    runsApi.listRuns.mockResolvedValue([...fixtures, running]);
    const { wrapper } = await mountHistory();
    const button = row(wrapper, running.id).get('[data-testid="delete-run"]');
    expect(button.attributes('aria-disabled')).toBe('true');
    const reason = wrapper.get(`#${button.attributes('aria-describedby') ?? 'none'}`);
    expect(reason.text()).toContain('A run in progress cannot be deleted');
    await button.trigger('click');
    await flushPromises();
    expect(dialog(wrapper).element.open).toBe(false);
    expect(runsApi.deleteRun).not.toHaveBeenCalled();
    expect(row(wrapper, matmul.id).get('[data-testid="delete-run"]').attributes('aria-disabled')).toBeUndefined();
  });
});

describe('exporting a run', () => {
  it('asks main for the run in each format: JSON, CSV of points, CSV of samples', async () => {
    const { wrapper } = await mountHistory();
    const cells = row(wrapper, matmul.id);
    for (const format of ['json', 'csv', 'csv-samples'] as const) {
      await cells.get(`[data-testid="export-${format}"]`).trigger('click');
      await flushPromises();
    }
    expect(runsApi.exportRun.mock.calls).toEqual([
      [matmul.id, 'json'],
      [matmul.id, 'csv'],
      [matmul.id, 'csv-samples'],
    ]);
    expect(cells.get('[data-testid="export-csv-samples"]').attributes('aria-label')).toBe(
      `Export run Matrix product of ${startedText}: Samples CSV, one row per raw sample`,
    );
  });

  it('says which export failed and why', async () => {
    runsApi.exportRun.mockRejectedValueOnce(new ApiError({ code: 'NOT_FOUND', message: `No readable run "${matmul.id}"` }));
    const { wrapper } = await mountHistory();
    await row(wrapper, matmul.id).get('[data-testid="export-json"]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="action-error"]').text()).toBe(
      `The export of Matrix product of ${startedText} failed: No readable run "${matmul.id}" (NOT_FOUND)`,
    );
  });
});

describe('importing runs', () => {
  it('offers Import runs alone with the machine and to a class’s teacher, never to a student or a guest', async () => {
    const offered: Record<string, boolean> = {};
    for (const role of ['solo', 'teacher', 'student', 'guest'] as const) {
      classroomApi.session.mockResolvedValueOnce({ role, className: null, name: null, caps: null });
      const { wrapper } = await mountHistory();
      await useSessionStore().load();
      await flushPromises();
      offered[role] = wrapper.find('[data-testid="import-runs"]').exists();
      wrapper.unmount();
    }
    expect(offered).toEqual({ solo: true, teacher: true, student: false, guest: false });
  });
});
