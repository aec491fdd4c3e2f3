// Nobody deletes a run that is measuring: a record whose runner is a live process of this machine (here a process
// this test starts, as another terminal's `gpu-lab run` or a serve would be) is refused by `gpu-lab runs delete`
// (exit 2, the reason), by serve's runs.deleteRun over its WebSocket and by the app's runs service alike, and is
// deleted once its runner is gone.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { createLabHost } from '../../../main/app/lab-host.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { processStartTicks, thisMachine } from '../../../main/engine/process-identity.ts';
import { startServer } from '../../../main/serve/server.ts';
import { call, openApiSocket } from '../serve/ws-client.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));
const env = { ...process.env, LANGUAGE: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8' };
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url), 'utf8')) as RunRecord;

const runners: ChildProcess[] = [];
afterAll(() => {
  for (const r of runners) r.kill('SIGKILL');
});

// A data folder holding one run in progress, measured by a live process of this machine.
function measuring(): { dataDir: string; path: string; runner: ChildProcess } {
  const runner = spawn('sleep', ['60']);
  runners.push(runner);
  const pid = runner.pid ?? 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-delete-'));
  mkdirSync(join(dataDir, 'runs'));
  const record: RunRecord = {
    ...fixture,
    status: 'running',
    finishedAt: null,
    points: fixture.points.slice(0, 2),
    environment: { ...fixture.environment, runnerPid: pid, runnerStartTicks: processStartTicks(pid), runnerHost: thisMachine() },
  };
  const path = join(dataDir, 'runs', `${fixture.id}.json`);
  writeFileSync(path, JSON.stringify(record));
  return { dataDir, path, runner };
}

async function gone(runner: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => runner.once('exit', resolve));
  runner.kill('SIGKILL');
  await exited;
}

describe('deleting a run that is being measured', () => {
  it('is refused by gpu-lab runs delete with exit 2 and the reason, and done once its runner is gone', async () => {
    const { dataDir, path, runner } = measuring();
    const refused = spawnSync(process.execPath, [bin, 'runs', 'delete', fixture.id, '--data-dir', dataDir], { encoding: 'utf8', env });
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`Run ${fixture.id} is being measured on this machine (pid ${runner.pid ?? 0}): cancel it, or let it finish, before deleting it`);
    expect(refused.stdout).not.toContain('deleted');
    expect(existsSync(path)).toBe(true);
    await gone(runner);
    const deleted = spawnSync(process.execPath, [bin, 'runs', 'delete', fixture.id, '--data-dir', dataDir], { encoding: 'utf8', env });
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(existsSync(path)).toBe(false);
  }, 60_000);

  it('is refused by the app and by serve over its WebSocket with INVALID_ARGUMENT and the reason', async () => {
    const { dataDir, path, runner } = measuring();
    const host = createLabHost({ dataDir, warn: () => undefined });
    const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-delete-web-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
    const server = await startServer({ api: host, staticDir, port: 0, token: 'delete-token' });
    try {
      await expect(host.runs.deleteRun(fixture.id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('is being measured on this machine') });
      const client = await openApiSocket(server.port, 'delete-token');
      const answer = await call(client, 'runs.deleteRun', [fixture.id]);
      expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining(`(pid ${runner.pid ?? 0})`) } });
      expect(existsSync(path)).toBe(true);
      await gone(runner);
      expect(await call(client, 'runs.deleteRun', [fixture.id])).toMatchObject({ ok: true });
      expect(existsSync(path)).toBe(false);
      client.ws.close();
    } finally {
      await server.close();
      await host.dispose();
    }
  }, 60_000);
});
