// The run in progress as a page follows it: started from the lab view, growing point by point from events, its
// findings replaced as they are recomputed, the stored record fetched when it ends; picked up again after a reload
// or a reconnect; events that arrive while the record is being fetched are not lost.
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { RunRecord } from '../../../../main/common/run-record.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';
import type { fakeMain } from './fake-main.ts';
import { msg } from '../../../../main/common/pure/message.ts';

const main = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeMain> | null }));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const { fakeMain: make } = await import('./fake-main.ts');
  main.current = make();
  return main.current.module();
});

const { useLiveRunStore } = await import('../../../../renderer/stores/live-run.ts');

function fake(): ReturnType<typeof fakeMain> {
  if (!main.current) throw new Error('the api module was not mocked');
  return main.current;
}

const stored = fixtureRun('h100-matmul').record;
function pointAt(i: number): RunRecord['points'][number] {
  const p = stored.points[i];
  if (!p) throw new Error(`the fixture has no point ${i}`);
  return p;
}
const running = (points = 0): RunRecord => ({ ...stored, status: 'running', points: stored.points.slice(0, points), findings: [], finishedAt: null });

beforeEach(() => {
  setActivePinia(createPinia());
  fake().calls.length = 0;
  fake().answer('runs.getRunProgress', () => null);
  fake().answer('runs.listRuns', () => []);
});

describe('the live run', () => {
  it('starts a run, grows with its points, replaces a finding by id, and takes the stored record when it ends', async () => {
    fake().answer('runs.startRun', () => ({ runId: stored.id }));
    fake().answer('runs.getRun', () => running());
    const live = useLiveRunStore();
    await live.start({ lab: 'matmul', device: 'cuda:0', params: { n: 7000 } });
    expect(fake().calls.find((c) => c.method === 'runs.startRun')?.args).toEqual([{ lab: 'matmul', device: 'cuda:0', params: { n: 7000 } }]);
    expect(live.active).toBe(true);
    for (const point of stored.points.slice(0, 3)) fake().emit({ kind: 'point', runId: stored.id, point });
    // The same point twice (a reconnect can replay it) is kept once.
    fake().emit({ kind: 'point', runId: stored.id, point: pointAt(0) });
    expect(live.record?.points.map((p) => p.key)).toEqual(stored.points.slice(0, 3).map((p) => p.key));
    const finding = { id: 'cpu-rate', message: msg('common.recorded', { text: 'first' }), value: 1, unit: 'none' as const, tone: 'info' as const };
    fake().emit({ kind: 'finding', runId: stored.id, finding });
    fake().emit({ kind: 'finding', runId: stored.id, finding: { ...finding, message: msg('common.recorded', { text: 'second' }) } });
    expect(live.record?.findings).toEqual([{ ...finding, message: msg('common.recorded', { text: 'second' }) }]);
    // Events of another run are not this one's.
    fake().emit({ kind: 'point', runId: 'someone-else', point: pointAt(4) });
    expect(live.record?.points).toHaveLength(3);

    fake().answer('runs.getRun', () => stored);
    fake().emit({ kind: 'completed', runId: stored.id, summary: { id: stored.id, lab: 'matmul', labTitle: '', device: 'cuda:0', status: 'completed', createdAt: '', finishedAt: '', points: 5, errorCode: null, params: {}, headline: null } });
    await flushPromises();
    expect(live.record).toEqual(stored);
    expect(live.active).toBe(false);
    expect(live.progress).toBeNull();
    expect(fake().calls.some((c) => c.method === 'runs.listRuns')).toBe(true);
  });

  it('takes the run’s plan from its start, for the chart to lay out what has not come', async () => {
    fake().answer('runs.startRun', () => ({ runId: stored.id }));
    fake().answer('runs.getRun', () => ({ ...running(), status: 'queued' }));
    const live = useLiveRunStore();
    await live.start({ lab: 'matmul' });
    expect(live.record?.plan).toBeUndefined();
    const plan = stored.points.map((p) => ({ key: p.key, series: p.series, label: p.label, x: p.x, reason: null }));
    fake().emit({ kind: 'started', runId: stored.id, lab: 'matmul', device: 'cuda:0', params: stored.params, pointsTotal: plan.length, plan });
    expect(live.record?.status).toBe('running');
    expect(live.record?.plan).toEqual(plan);
  });

  it('keeps the points that arrive while the record is being fetched', async () => {
    let release: (r: RunRecord) => void = () => undefined;
    fake().answer('runs.startRun', () => ({ runId: stored.id }));
    fake().answer('runs.getRun', () => new Promise<RunRecord>((resolve) => (release = resolve)));
    const live = useLiveRunStore();
    const started = live.start({ lab: 'matmul' });
    await flushPromises();
    fake().emit({ kind: 'point', runId: stored.id, point: pointAt(0) });
    fake().emit({ kind: 'point', runId: stored.id, point: pointAt(1) });
    // The record main sends was read before the second point: the first is in it, the second only in the events.
    release(running(1));
    await started;
    expect(live.record?.points.map((p) => p.key)).toEqual(stored.points.slice(0, 2).map((p) => p.key));
  });

  it('picks up a run in progress after a reload, with its latest progress', async () => {
    const progress = { pointsDone: 2, pointsTotal: 5, fraction: 0.4, etaSeconds: 12, current: 'GPU tiled kernel, N = 7000' };
    fake().answer('runs.listRuns', () => [{ id: stored.id, lab: 'matmul', labTitle: stored.labTitle, device: 'cuda:0', status: 'running', createdAt: stored.createdAt, finishedAt: null, points: 2, errorCode: null }]);
    fake().answer('runs.getRun', () => running(2));
    fake().answer('runs.getRunProgress', () => progress);
    const live = useLiveRunStore();
    await live.resume();
    expect(live.runId).toBe(stored.id);
    expect(live.record?.points).toHaveLength(2);
    expect(live.progress).toEqual(progress);
    expect(live.active).toBe(true);
  });

  it('follows a run started elsewhere when it follows none, and resumes when the link comes back', async () => {
    fake().answer('runs.getRun', () => running(0));
    const live = useLiveRunStore();
    fake().emit({ kind: 'started', runId: stored.id, lab: 'matmul', device: 'cuda:0', params: stored.params, pointsTotal: 5 });
    await flushPromises();
    expect(live.runId).toBe(stored.id);
    fake().calls.length = 0;
    fake().setState('open');
    await flushPromises();
    expect(fake().calls.map((c) => c.method)).toContain('runs.listRuns');
  });

  it('says why a run could not start, naming the parameter', async () => {
    const { ApiError } = await import('../../../../renderer/api/api-error.ts');
    fake().answer('runs.startRun', () => {
      throw new ApiError({ code: 'INVALID_PARAMS', message: 'Parameter "n" of lab "matmul" = 0 is not allowed', details: { parameter: 'n' } });
    });
    const live = useLiveRunStore();
    await expect(live.start({ lab: 'matmul', params: { n: 0 } })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    expect(live.record).toBeNull();
  });
});
