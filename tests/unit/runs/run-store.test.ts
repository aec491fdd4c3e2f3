import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { RUN_SCHEMA_VERSION } from '../../../main/common/run-record.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { pointsCsv, samplesCsv } from '../../../main/runs/run-export.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { processStartTicks } from '../../../main/engine/process-identity.ts';

export function sampleRecord(id: string): RunRecord {
  return {
    schemaVersion: RUN_SCHEMA_VERSION,
    id,
    lab: 'vector-function',
    labTitle: 'A vector function',
    device: 'cpu',
    params: { elements: 1000 },
    status: 'completed',
    error: null,
    createdAt: `2026-01-01T00:00:0${id.length % 10}.000Z`,
    finishedAt: null,
    appVersion: '0.1.0',
    environment: { devices: null, versions: {}, hostPid: 1 },
    points: [
      {
        key: 'cpu-single', series: 'cpu-single', label: 'CPU, one thread, "quoted"', x: null, device: 'cpu', status: 'ok', reason: null, error: null,
        work: { flops: 5000, bytes: 24000, elements: 1000 }, implementation: 'loop', threads: 1, warmup: 1, repeats: 2, clock: 'host',
        hostMs: [1, 2], deviceMs: null,
        stats: { count: 2, median: 1.5, mean: 1.5, std: 0.7, min: 1, max: 2, p95: 1.95, q1: 1.25, q3: 1.75, iqr: 0.5, ciLow: null, ciHigh: null, noisy: true },
        gflops: 0.0033, gbps: 0.016, verification: null, telemetry: null,
      },
    ],
    summary: {},
    findings: [],
    warnings: [],
  };
}

function store(): { store: RunStore; warnings: string[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-store-'));
  const warnings: string[] = [];
  return { store: new RunStore(dir, { warn: (m) => warnings.push(m) }), warnings, dir };
}

describe('run store', () => {
  it('marks a run left running by a process that died as failed with RUN_INTERRUPTED, keeping its points', async () => {
    const { store: s } = store();
    // The pid of a process that has certainly exited.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const interrupted = { ...sampleRecord('left-running'), status: 'running' as const };
    interrupted.environment = { ...interrupted.environment, runnerPid: Number(dead.stdout) };
    const live = { ...sampleRecord('still-running'), status: 'running' as const };
    live.environment = { ...live.environment, runnerPid: process.pid };
    await s.save(interrupted);
    await s.save(live);
    const got = await s.get('left-running');
    expect(got.status).toBe('failed');
    expect(got.error?.code).toBe('RUN_INTERRUPTED');
    expect(got.error?.message).toContain(`pid ${dead.stdout}`);
    expect(got.points).toHaveLength(1);
    // A run whose process is alive (this one) is left alone.
    expect((await s.get('still-running')).status).toBe('running');
    // The verdict is saved: the file on disk says it, not only what a reader works out again from the dead pid.
    const onDisk = JSON.parse(readFileSync(join(s.dir, 'left-running.json'), 'utf8')) as { status: string; error: { code: string } | null };
    expect(onDisk.status).toBe('failed');
    expect(onDisk.error?.code).toBe('RUN_INTERRUPTED');
    const reread = new RunStore(join(s.dir, '..'));
    expect((await reread.list()).find((r) => r.id === 'left-running')?.status).toBe('failed');
  });

  it('saves, lists, reads and deletes records', async () => {
    const { store: s } = store();
    await s.save(sampleRecord('a1'));
    await s.save(sampleRecord('b22'));
    expect((await s.list()).map((r) => r.id).sort()).toEqual(['a1', 'b22']);
    expect((await s.get('a1')).points[0]?.hostMs).toEqual([1, 2]);
    await s.delete('a1');
    await expect(s.get('a1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(s.delete('../etc')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('skips a corrupt file with a warning and keeps the others', async () => {
    const { store: s, warnings } = store();
    await s.save(sampleRecord('good'));
    writeFileSync(join(s.dir, 'broken.json'), '{"schemaVersion": 1, "id": "bro');
    writeFileSync(join(s.dir, 'future.json'), JSON.stringify({ ...sampleRecord('future'), schemaVersion: 99 }));
    expect((await s.list()).map((r) => r.id)).toEqual(['good']);
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toContain('broken.json');
  });

  it('does not take a pid the system gave to another process for the runner: the start time must match too', async () => {
    const { store: s } = store();
    // This process is alive, but the record says its runner started at another time: the pid was reused.
    const reused = { ...sampleRecord('pid-reused'), status: 'running' as const };
    const started = processStartTicks(process.pid);
    expect(started).not.toBeNull();
    reused.environment = { ...reused.environment, runnerPid: process.pid, runnerStartTicks: (started ?? 0) + 12345 };
    const same = { ...sampleRecord('same-runner'), status: 'running' as const };
    same.environment = { ...same.environment, runnerPid: process.pid, runnerStartTicks: started };
    await s.save(reused);
    await s.save(same);
    const got = await s.get('pid-reused');
    expect(got.status).toBe('failed');
    expect(got.error?.code).toBe('RUN_INTERRUPTED');
    expect((await s.get('same-runner')).status).toBe('running');
  });

  it('reads a process start time from /proc, its command name with spaces and parentheses included', () => {
    const proc = mkdtempSync(join(tmpdir(), 'gpu-lab-proc-'));
    mkdirSync(join(proc, '42'));
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
    // priority nice num_threads itrealvalue starttime …
    writeFileSync(join(proc, '42', 'stat'), '42 (node (a) b) S 1 42 42 0 -1 4194304 10 0 0 0 5 3 0 0 20 0 11 0 987654 1000 200\n');
    expect(processStartTicks(42, proc)).toBe(987654);
    expect(processStartTicks(43, proc)).toBeNull();
  });

  it('survives a write interrupted midway: the old version stays, the temporary file is ignored', async () => {
    const { store: s } = store();
    const record = sampleRecord('run1');
    await s.save(record);
    // A crash between writing the temporary file and renaming it leaves a half-written temporary file behind.
    writeFileSync(join(s.dir, 'run1.json.tmp-999-abcd'), JSON.stringify({ ...record, status: 'failed' }).slice(0, 50));
    expect((await s.get('run1')).status).toBe('completed');
    expect(await s.list()).toHaveLength(1);
    // Saving again replaces the record whole.
    await s.save({ ...record, status: 'cancelled' });
    expect((await s.get('run1')).status).toBe('cancelled');
    expect(readdirSync(s.dir).filter((n) => n.endsWith('.json'))).toEqual(['run1.json']);
  });

  it('exports points and raw samples as CSV, quoting where needed', () => {
    const r = sampleRecord('x');
    const points = pointsCsv(r).split('\n');
    expect(points[0]).toMatch(/^run_id,lab,key,.*,samples,median_ms,ci_low_ms,ci_high_ms,/);
    expect(points[1]).toContain('"CPU, one thread, ""quoted"""');
    // Each row names its run and lab, so that several runs' CSVs concatenated can still be told apart.
    expect(points[1]?.startsWith(`x,${r.lab},cpu-single,`)).toBe(true);
    expect(samplesCsv(r)).toBe(`run_id,lab,key,series,x,device,sample,host_ms,device_ms\nx,${r.lab},cpu-single,cpu-single,,cpu,0,1,\nx,${r.lab},cpu-single,cpu-single,,cpu,1,2,\n`);
  });
});
