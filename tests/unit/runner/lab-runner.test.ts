// Every lab through the real compute host on the CPU with small sizes, and a host that dies for real mid-run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import type { RunEvent } from '../../../main/common/contract.ts';
import { RUN_RECORD } from '../../../main/common/run-record.ts';
import { createLabHost } from '../../../main/runner/lab-host.ts';

const logs: string[] = [];
const host = createLabHost({
  dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-runs-')),
  supervisor: { testHooks: true, log: (line: string) => logs.push(line) },
  warn: (m) => logs.push(m),
});

afterAll(async () => {
  await host.dispose();
});

const SMALL: Record<string, Record<string, unknown>> = {
  transfer: { maxBytes: 4096 },
  dtypes: { n: 64, repeats: 2 },
  matmul: { n: 64, repeats: 2, cpuRepeats: 2 },
  'vector-function': { elements: 10_000, repeats: 3 },
  'elementwise-breakeven': { minExponent: 2, maxExponent: 4, repeats: 3 },
  'matmul-breakeven': { sizes: [32, 64], repeats: 3 },
  'timing-pitfalls': { n: 64, repeats: 3 },
};

async function run(lab: string, params: Record<string, unknown>, device = 'cpu') {
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
    expect(record.status).toBe('completed');
    expect(RUN_RECORD.safeParse(record).success).toBe(true);
    for (const p of record.points) {
      if (p.device === 'cpu') {
        expect(p.status, `${p.key}: ${p.reason ?? ''}`).toBe('ok');
        expect(p.verification?.passed ?? true).toBe(true);
        expect(p.stats?.median ?? 0).toBeGreaterThan(0);
      } else {
        expect(p.status).toBe('waived');
        expect(p.reason).toMatch(/CUDA|CPU only/);
      }
    }
    expect(events[0]?.kind).toBe('started');
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
    expect(events.find((e) => e.kind === 'failed')).toBeDefined();
    const next = await run('vector-function', SMALL['vector-function'] ?? {});
    expect(next.record.status).toBe('completed');
    const runs = await host.runs.listRuns();
    expect(runs).toHaveLength(before + 2);
    expect(runs.find((r) => r.id === runId)?.errorCode).toBe('COMPUTE_HOST_CRASHED');
    expect(logs.some((l) => /\[compute-host pid \d+\] died \(signal SIGABRT\)/.test(l))).toBe(true);
  });

  it('cancels a run between samples and keeps what was measured', async () => {
    const sub = host.runs.onDidChangeRun((e) => {
      if (e.kind === 'progress' && e.progress.pointsDone === 1) void host.runs.cancelRun(e.runId);
    });
    const { runId } = await host.runs.startRun({ lab: 'vector-function', device: 'cpu', params: { elements: 1_000_000, repeats: 1000 } });
    await host.runs.whenIdle();
    sub.dispose();
    const record = await host.runs.getRun(runId);
    expect(record.status).toBe('cancelled');
    expect(record.points[0]?.status).toBe('ok');
    expect(record.points[1]?.status).toBe('cancelled');
  });
});
