// The history on the recorded fixtures: every run newest first with its lab, device, start, duration, status and
// points; runs still going and runs cut short read as such; the page before, without and instead of any runs; and
// the list following runs as they start.
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError } from '../../../../renderer/api/api-error.ts';
import { emitRunEvent, listenerCount, runsApi } from './fake-api.ts';
import { fixtureSummaries, interruptedSummary, loadRecord, mountHistory, row, rowIds, runningRecord, runningSummary, summaryOf } from './fixtures.ts';

vi.mock('../../../../renderer/api/index.ts', async () => (await import('./fake-api.ts')).apiModule());

const fixtures = fixtureSummaries();

beforeEach(() => {
  runsApi.listRuns.mockResolvedValue(fixtures);
});

afterEach(() => {
  vi.clearAllMocks();
  document.body.innerHTML = '';
});

describe('the history list', () => {
  it('shows every stored run, newest first', async () => {
    const { wrapper } = await mountHistory();
    const newestFirst = [...fixtures].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).map((s) => s.id);
    expect(rowIds(wrapper)).toEqual(newestFirst);
    // The H100's timing-pitfalls run was the last one recorded (07:50:10Z), the CPU's transfer run the first.
    expect(rowIds(wrapper)[0]).toBe(summaryOf('h100-timing-pitfalls.json').id);
    expect(rowIds(wrapper).at(-1)).toBe(summaryOf('cpu-transfer.json').id);
    expect(wrapper.get('[data-testid="run-count"]').text()).toBe('14 of 14 runs');
    expect(wrapper.get('caption').text()).toBe('Stored runs, newest first');
  });

  it('shows each run’s lab, device, start (full time as a tooltip), duration, status and points', async () => {
    const { wrapper } = await mountHistory();
    const transfer = summaryOf('h100-transfer.json');
    const cells = row(wrapper, transfer.id);
    expect(cells.get('[data-testid="open-run"]').text()).toContain('Host↔device transfers');
    expect(cells.get('[data-testid="open-run"]').attributes('title')).toBe('Host↔device transfers: bandwidth, latency and pinned memory');
    expect(cells.get('[data-testid="open-run"]').attributes('href')).toBe(`/runs/${transfer.id}`);
    expect(cells.get('.device').text()).toBe('cuda:0');
    expect(cells.get('time').attributes('datetime')).toBe('2026-11-23T07:49:14.529Z');
    expect(cells.get('time').attributes('title')).toBe('2026-11-23T07:49:14.529Z');
    expect(cells.get('time').text()).toBe(new Date('2026-11-23T07:49:14.529Z').toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' }));
    // 07:49:41.998 − 07:49:14.529 = 27.469 s.
    expect(cells.get('[data-testid="duration"]').text()).toBe('27 s');
    expect(cells.get('[data-testid="status"]').text()).toBe('✓ Completed');
    expect(cells.get('[data-testid="points"]').text()).toBe('99');
    // 07:49:54.862 − 07:49:46.525 = 8.337 s; 07:47:18.323 − 07:47:18.314 = 9 ms.
    expect(row(wrapper, summaryOf('h100-matmul.json').id).get('[data-testid="duration"]').text()).toBe('8.3 s');
    expect(row(wrapper, summaryOf('cpu-transfer.json').id).get('[data-testid="duration"]').text()).toBe('9 ms');
    expect(row(wrapper, summaryOf('cpu-matmul.json').id).get('.device').text()).toBe('cpu');
  });

  it('marks a run in progress as running, with no duration yet, and a run cut short as failed RUN_INTERRUPTED', async () => {
    const running = runningSummary();
    const interrupted = interruptedSummary();
    runsApi.listRuns.mockResolvedValue([...fixtures, interrupted, running]);
    const { wrapper } = await mountHistory();
    expect(rowIds(wrapper).slice(0, 2)).toEqual([running.id, interrupted.id]);
    const live = row(wrapper, running.id);
    expect(live.get('[data-testid="status"]').text()).toBe('Running');
    expect(live.find('.live-dot').exists()).toBe(true);
    expect(live.get('[data-testid="duration"]').text()).toContain('not finished');
    const cut = row(wrapper, interrupted.id).get('[data-testid="status"]');
    expect(cut.get('[data-status]').attributes('data-status')).toBe('failed');
    expect(cut.text()).toContain('Failed');
    expect(cut.get('[data-testid="error-code"]').text()).toBe('RUN_INTERRUPTED');
    expect(cut.text()).toContain('GPU Lab stopped before the run ended');
  });

  it('says what to do when no run is stored yet', async () => {
    runsApi.listRuns.mockResolvedValue([]);
    const { wrapper } = await mountHistory();
    const empty = wrapper.get('[data-testid="history-empty"]');
    expect(empty.text()).toContain('No runs yet');
    expect(empty.text()).toContain('Open a lab');
    expect(empty.get('a').attributes('href')).toBe('/labs');
    expect(wrapper.find('table').exists()).toBe(false);
  });

  it('says it is reading the runs until they come, and shows main’s error with a way to try again', async () => {
    let answer: (runs: typeof fixtures) => void = () => undefined;
    runsApi.listRuns.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const { wrapper } = await mountHistory();
    expect(wrapper.get('[data-testid="history-loading"]').text()).toBe('Reading the stored runs…');
    answer(fixtures);
    await flushPromises();
    expect(wrapper.find('[data-testid="history-loading"]').exists()).toBe(false);
    expect(rowIds(wrapper)).toHaveLength(14);

    document.body.innerHTML = '';
    runsApi.listRuns.mockRejectedValueOnce(new ApiError({ code: 'NOT_FOUND', message: 'The runs folder /data/runs is gone' }));
    const failed = (await mountHistory()).wrapper;
    expect(failed.get('[data-testid="history-error"]').text()).toContain('The stored runs could not be read: The runs folder /data/runs is gone (NOT_FOUND)');
    await failed.get('[data-testid="history-error"] button').trigger('click');
    await flushPromises();
    expect(failed.find('[data-testid="history-error"]').exists()).toBe(false);
    expect(rowIds(failed)).toHaveLength(14);
  });

  it('adds a run when it starts, counts its points as they come, and stops listening when the page closes', async () => {
    const { wrapper } = await mountHistory();
    const subscribed = listenerCount();
    const running = runningSummary();
    const record = runningRecord();
    runsApi.listRuns.mockResolvedValue([...fixtures, running]);
    runsApi.getRun.mockResolvedValue(record);
    runsApi.getRunProgress.mockResolvedValue(null);
    emitRunEvent({ kind: 'started', runId: running.id, lab: running.lab, device: running.device, params: record.params, pointsTotal: 5 });
    await flushPromises();
    expect(rowIds(wrapper)[0]).toBe(running.id);
    expect(wrapper.get('[data-testid="run-count"]').text()).toBe('15 of 15 runs');
    expect(row(wrapper, running.id).get('[data-testid="points"]').text()).toBe('2');
    const third = loadRecord('cpu-matmul.json').points[2];
    if (!third) throw new Error('cpu-matmul.json has fewer than 3 points');
    emitRunEvent({ kind: 'point', runId: running.id, point: third });
    await flushPromises();
    expect(row(wrapper, running.id).get('[data-testid="points"]').text()).toBe('3');
    wrapper.unmount();
    expect(listenerCount()).toBe(subscribed - 1);
  });
});
