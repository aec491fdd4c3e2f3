// Every lab through the real compute host on the CPU with small sizes, a host that dies for real mid-run, and a run
// store that fails to save.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import type { RunEvent } from '../../../main/common/contract/runs.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import type { ParamValues } from '../../../main/common/lab-descriptor.ts';
import { RUN_RECORD } from '../../../main/common/run-record.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { LabRunner } from '../../../main/runs/lab-runner.ts';
import { findLab } from '../../../main/labs/index.ts';
import { RunStore } from '../../../main/runs/run-store.ts';

const logs: string[] = [];
const host = createLabHost({
  dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-runs-')),
  supervisor: { testHooks: true, log: (line: string) => logs.push(line) },
  warn: (m) => logs.push(m),
});

afterAll(async () => {
  await host.dispose();
});

const SMALL: Record<string, ParamValues> = {
  transfer: { maxBytes: 4096 },
  dtypes: { n: 64, repeats: 2 },
  matmul: { n: 64, repeats: 2, cpuRepeats: 2 },
  'vector-function': { elements: 10_000, repeats: 3 },
  'elementwise-breakeven': { minExponent: 2, maxExponent: 4, repeats: 3 },
  'matmul-breakeven': { sizes: [32, 64], repeats: 3 },
  'timing-pitfalls': { n: 64, repeats: 3 },
};

async function run(lab: string, params: ParamValues, device = 'cpu') {
  const events: RunEvent[] = [];
  const sub = host.runs.onDidChangeRun((e) => events.push(e));
  const { runId } = await host.runs.startRun({ lab, device, params });
  await host.runs.whenIdle();
  sub.dispose();
  return { runId, record: await host.runs.getRun(runId), events: events.filter((e) => e.runId === runId) };
}

describe('labs on the CPU through the compute host', () => {
  it.each(Object.entries(SMALL))('%s runs, verifies every CPU point and stores a valid record', async (lab, params) => {
    const { record, events } = await run(lab, params);
    // A lab with no CPU point (transfer) measures nothing here: waived, not completed.
    expect(record.status).toBe(record.points.some((p) => p.device === 'cpu') ? 'completed' : 'waived');
    expect(RUN_RECORD.safeParse(record).success).toBe(true);
    for (const p of record.points) {
      // A Python peer's CPU series whose library this machine lacks (Numba, PyTorch) is waived, naming it.
      const peer = findLab(lab)?.descriptor.series.find((s) => s.key === p.series)?.peer;
      if (p.device === 'cpu' && peer && p.status === 'waived') {
        expect(p.reason).toContain(peer);
      } else if (p.device === 'cpu') {
        expect(p.status, `${p.key}: ${p.reason ?? ''}`).toBe('ok');
        expect(p.verification?.passed ?? true).toBe(true);
        expect(p.stats?.median ?? 0).toBeGreaterThan(0);
      } else {
        expect(p.status).toBe('waived');
        expect(p.reason).toMatch(/CUDA|CPU only|not installed/);
      }
    }
    expect(events[0]?.kind).toBe('started');
    // The plan, in the record and in the started event, is the points the run went on to record, in their order,
    // each waived one with its reason: what a running chart lays out before they come.
    const plan = record.points.map((p) => ({ key: p.key, series: p.series, x: p.x, reason: p.status === 'waived' ? p.reason : null }));
    expect(record.plan?.map((e) => ({ key: e.key, series: e.series, x: e.x, reason: e.reason }))).toEqual(plan);
    const started = events[0];
    expect(started?.kind === 'started' ? started.plan : undefined).toEqual(record.plan);
    expect(events.at(-1)?.kind).toBe('completed');
    expect(events.filter((e) => e.kind === 'point')).toHaveLength(record.points.length);
    expect(events.some((e) => e.kind === 'finding')).toBe(true);
    for (const e of events) {
      if (e.kind !== 'progress') continue;
      expect(e.progress.fraction).toBeGreaterThanOrEqual(0);
      expect(e.progress.fraction).toBeLessThanOrEqual(1);
      expect(e.progress.etaSeconds ?? 0).toBeGreaterThanOrEqual(0);
    }
    expect((await host.runs.exportRun(record.id, 'csv')).text.split('\n')[0]).toContain('median_ms');
  });

  it('sends findings while the run goes on, before it completes, and getRunProgress answers mid-run', async () => {
    const seen: { kind: string; beforeEnd: boolean }[] = [];
    let ended = false;
    let progressMidRun: unknown = undefined;
    const sub = host.runs.onDidChangeRun((e) => {
      if (e.kind === 'completed') ended = true;
      if (e.kind === 'finding') seen.push({ kind: e.finding.id, beforeEnd: !ended });
      if (e.kind === 'point' && progressMidRun === undefined) {
        void host.runs.getRunProgress(e.runId).then((p) => (progressMidRun = p));
      }
    });
    // Enough CPU points, each a few milliseconds, for the provisional analysis to run at least once mid-run.
    // No Python peers: the engine's 27 points alone.
    const { runId } = await host.runs.startRun({ lab: 'elementwise-breakeven', device: 'cpu', params: { ops: ['add'], minExponent: 5, maxExponent: 7, pointsPerDecade: 4, repeats: 20 }, peers: [] });
    await host.runs.whenIdle();
    sub.dispose();
    expect(seen.some((f) => f.beforeEnd)).toBe(true);
    expect(progressMidRun).toMatchObject({ pointsTotal: 27 });
    expect(await host.runs.getRunProgress(runId)).toBeNull();
    await expect(host.runs.getRunProgress('no-such-run')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('fails the run that was in flight when the host died, then runs the next one; no record is lost', async () => {
    const before = (await host.runs.listRuns()).length;
    const events: RunEvent[] = [];
    const sub = host.runs.onDidChangeRun((e) => {
      events.push(e);
      // Once the first point is being measured, kill the host for real (process.abort()).
      if (e.kind === 'progress' && e.progress.pointsDone === 0 && events.filter((x) => x.kind === 'progress').length === 1) void host.supervisor.crashForTest('abort');
    });
    const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 2_000_000, repeats: 1000 } });
    await host.runs.whenIdle();
    sub.dispose();
    const failed = await host.runs.getRun(runId);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('COMPUTE_HOST_CRASHED');
    expect(failed.error?.details).toMatchObject({ signal: 'SIGABRT' });
    const [crashed, ...rest] = failed.points;
    expect(crashed?.error?.code).toBe('COMPUTE_HOST_CRASHED');
    expect(rest.length).toBeGreaterThan(0);
    for (const p of rest) expect([p.status, p.reason]).toEqual(['cancelled', 'the run failed before this point: COMPUTE_HOST_CRASHED']);
    expect(events.find((e) => e.kind === 'failed')).toBeDefined();
    const next = await run('vector-function', SMALL['vector-function'] ?? {});
    expect(next.record.status).toBe('completed');
    const runs = await host.runs.listRuns();
    expect(runs).toHaveLength(before + 2);
    expect(runs.find((r) => r.id === runId)?.errorCode).toBe('COMPUTE_HOST_CRASHED');
    expect(logs.some((l) => /\[compute-host pid \d+\] died \(signal SIGABRT\)/.test(l))).toBe(true);
  });

  it('refuses a device this machine does not have before the run exists, naming the devices it has', async () => {
    const before = (await host.runs.listRuns()).length;
    await expect(host.runs.startRun({ lab: 'vector-function', device: 'cuda:37', params: SMALL['vector-function'] })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: { parameter: 'device', value: 'cuda:37', available: expect.arrayContaining(['cpu']) },
    });
    expect(await host.runs.listRuns()).toHaveLength(before);
  });

  it('tells the host a run ended in a message the host takes, not one it ignores as malformed', async () => {
    const { record } = await run('vector-function', SMALL['vector-function'] ?? {});
    expect(record.status).toBe('completed');
    // The host answers in order: a later request's answer means the run's end was read before it.
    await host.supervisor.environment();
    expect(logs.filter((l) => /malformed/.test(l))).toEqual([]);
  });

  it('cancels a run between samples and keeps what was measured', async () => {
    // The host is told the run is over, so that it lets go of the inputs it kept for the run's next point: once, after
    // its last point, cancelled or not.
    const told = vi.spyOn(host.supervisor, 'runEnded');
    let pointsDoneWhenTold = -1;
    let pointsDone = 0;
    told.mockImplementation(() => {
      pointsDoneWhenTold = pointsDone;
    });
    const sub = host.runs.onDidChangeRun((e) => {
      if (e.kind === 'progress') pointsDone = e.progress.pointsDone;
      if (e.kind === 'progress' && e.progress.pointsDone === 1) void host.runs.cancelRun(e.runId);
    });
    const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 1_000_000, repeats: 1000 } });
    await host.runs.whenIdle();
    sub.dispose();
    const calls = told.mock.calls.length;
    told.mockRestore();
    const record = await host.runs.getRun(runId);
    expect(record.status).toBe('cancelled');
    expect(record.points[0]?.status).toBe('ok');
    expect(record.points[1]?.status).toBe('cancelled');
    expect(calls).toBe(1);
    expect(pointsDoneWhenTold).toBeGreaterThanOrEqual(1);
  });
});

// A store whose saves fail while `failing` says so, as a full disk or a revoked permission would.
class FlakyStore extends RunStore {
  failing: (record: RunRecord) => boolean = () => false;
  failures = 0;
  // The number of points in each record saved while its run was running.
  progressSaves: number[] = [];

  override async save(record: RunRecord, options: { durable?: boolean } = {}): Promise<void> {
    if (record.status === 'running') this.progressSaves.push(record.points.length);
    if (this.failing(record)) {
      this.failures++;
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
    }
    await super.save(record, options);
  }
}

function flakyRunner(progressSaveIntervalMs?: number): { runner: LabRunner; store: FlakyStore; events: RunEvent[] } {
  const store = new FlakyStore(mkdtempSync(join(tmpdir(), 'gpu-lab-flaky-')), { warn: (m) => logs.push(m) });
  const runner = new LabRunner({ store, host: host.supervisor, appVersion: 'test', progressSaveIntervalMs });
  const events: RunEvent[] = [];
  runner.onDidChangeRun((e) => events.push(e));
  return { runner, store, events };
}

const smallRun = { lab: 'vector-function', device: 'cpu', params: SMALL['vector-function'] ?? {} };

describe('run lifecycle when the store fails', () => {
  it('refuses a run whose first save fails with a GpuLabError, leaving no run behind', async () => {
    const { runner, store } = flakyRunner();
    store.failing = () => true;
    const refused = await runner.startRun(smallRun).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GpuLabError);
    expect(refused).toMatchObject({ code: 'NATIVE_ERROR', message: expect.stringContaining('could not be saved'), details: { cause: 'ENOSPC' } });
    expect(await runner.listRuns()).toEqual([]);
    const runId = (refused as GpuLabError).details?.runId as string;
    await expect(runner.deleteRun(runId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('saves a finished run on the second try when the first final save fails', async () => {
    const { runner, store } = flakyRunner();
    let finals = 0;
    store.failing = (r) => r.finishedAt !== null && finals++ === 0;
    const { runId } = await runner.startRun(smallRun);
    await runner.whenIdle();
    expect(store.failures).toBe(1);
    const onDisk = await store.get(runId);
    expect(onDisk.status).toBe('completed');
    expect(onDisk.warnings).toEqual([]);
  });

  it('keeps a finished run it cannot save in memory, says so, and saves it when the next run finishes', async () => {
    const { runner, store, events } = flakyRunner();
    store.failing = (r) => r.finishedAt !== null;
    const { runId } = await runner.startRun(smallRun);
    await runner.whenIdle();
    expect(store.failures).toBe(2);
    const kept = await runner.getRun(runId);
    expect(kept.status).toBe('completed');
    expect(kept.warnings.join(' ')).toMatch(/could not be saved \(tried twice: .*ENOSPC/);
    expect(['queued', 'running']).toContain((await store.get(runId)).status);
    expect((await runner.listRuns()).find((r) => r.id === runId)?.status).toBe('completed');
    const mine = events.filter((e) => e.runId === runId);
    const warning = mine.find((e) => e.kind === 'finding' && e.finding.id === 'run-not-saved');
    expect(warning).toBeDefined();
    expect(mine.indexOf(warning as RunEvent)).toBe(mine.length - 2);
    expect(mine.at(-1)?.kind).toBe('completed');

    store.failing = () => false;
    const next = await runner.startRun(smallRun);
    await runner.whenIdle();
    const saved = await store.get(runId);
    expect(saved.status).toBe('completed');
    expect(saved.findings.length).toBeGreaterThan(0);
    expect((await store.get(next.runId)).status).toBe('completed');
  });
});

describe('a running run on disk', () => {
  it('is saved with its new points no more than once per save interval, not after every point', async () => {
    const { runner, store } = flakyRunner();
    const started = performance.now();
    const { runId } = await runner.startRun({ lab: 'elementwise-breakeven', device: 'cpu', params: SMALL['elementwise-breakeven'] ?? {} });
    await runner.whenIdle();
    const seconds = (performance.now() - started) / 1000;
    const record = await store.get(runId);
    expect(record.status).toBe('completed');
    expect(record.points.length).toBeGreaterThan(20);
    // The first, with no point, when the run begins to measure: from then on it is stored.
    expect(store.progressSaves[0]).toBe(0);
    expect(store.progressSaves.length - 1).toBeLessThanOrEqual(Math.floor(seconds));
  });

  it('is saved after every point that ends a save interval, so a dying process leaves its points behind', async () => {
    const { runner, store } = flakyRunner(0);
    const { runId } = await runner.startRun(smallRun);
    await runner.whenIdle();
    const points = (await store.get(runId)).points.length;
    expect(store.progressSaves).toEqual(Array.from({ length: points + 1 }, (_, i) => i));
  });
});
