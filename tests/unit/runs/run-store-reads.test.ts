// Reading the runs folder as a sync tool, a shared cluster home or a hostile neighbour leaves it: two files for one
// run, records of another machine, a FIFO, a symbolic link to /etc/passwd, a file of 65 MiB. A read never rewrites
// another file than the one it read, never judges another machine's runner, never blocks, never follows a link and
// never echoes a byte of what it refused; delete refuses a run still measured on this machine.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { RunRecord } from '../../../main/common/run-record.ts';
import { processStartTicks, thisMachine, whereRuns } from '../../../main/engine/process-identity.ts';
import { RunStore } from '../../../main/runs/run-store.ts';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url), 'utf8')) as RunRecord;
const ID = fixture.id;

// A pid whose process has certainly exited.
const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

function folder(): { store: RunStore; runs: string; warnings: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-reads-'));
  const runs = join(dir, 'runs');
  mkdirSync(runs);
  const warnings: string[] = [];
  return { store: new RunStore(dir, { warn: (m) => warnings.push(m) }), runs, warnings };
}

function running(points: number, environment: Partial<RunRecord['environment']>): RunRecord {
  return { ...fixture, status: 'running', finishedAt: null, findings: [], points: fixture.points.slice(0, points), environment: { ...fixture.environment, ...environment } };
}

function put(runs: string, name: string, record: RunRecord): string {
  const text = JSON.stringify(record);
  writeFileSync(join(runs, name), text);
  return text;
}

const fifos: string[] = [];
afterEach(() => {
  // A reader still blocked on a FIFO (the code before this fix) is let go: a writer opening it ends the wait.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waits.
    }
  }
});

describe('two files holding one run, as a sync tool leaves them', () => {
  it('shows the completed one, names the other in a warning, and changes neither', async () => {
    const { store, runs, warnings } = folder();
    const completed = put(runs, `${ID}.json`, fixture);
    const copy = put(runs, `${ID} (conflicted copy).json`, running(1, { runnerPid: deadPid, runnerHost: thisMachine() }));
    const listed = await store.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: ID, status: 'completed', points: fixture.points.length, errorCode: null });
    expect((await store.get(ID)).status).toBe('completed');
    expect(warnings.join('\n')).toContain(`${ID} (conflicted copy).json`);
    expect(warnings.join('\n')).toContain('neither file was changed');
    expect(readFileSync(join(runs, `${ID}.json`), 'utf8')).toBe(completed);
    expect(readFileSync(join(runs, `${ID} (conflicted copy).json`), 'utf8')).toBe(copy);
  });

  it('without a completed one, shows the one with more points, whichever file name it has', async () => {
    const { store, runs } = folder();
    const few = put(runs, `${ID}.json`, running(1, { runnerPid: deadPid }));
    const more = put(runs, `${ID}.sync-conflict-20261123-0800.json`, running(4, { runnerPid: deadPid }));
    const got = await store.get(ID);
    expect(got.points).toHaveLength(4);
    // Its runner is gone: shown interrupted, but neither file is the run's only one, so neither is rewritten.
    expect(got.error?.code).toBe('RUN_INTERRUPTED');
    expect(readFileSync(join(runs, `${ID}.json`), 'utf8')).toBe(few);
    expect(readFileSync(join(runs, `${ID}.sync-conflict-20261123-0800.json`), 'utf8')).toBe(more);
  });

  it('marks a lone interrupted run in the very file it read, not in a file named after its id', async () => {
    const { store, runs } = folder();
    // A record from before runs named their machine: judged here, as it always was.
    put(runs, 'renamed-by-hand.json', running(2, { runnerPid: deadPid }));
    const [summary] = await store.list();
    expect(summary).toMatchObject({ id: ID, status: 'failed', errorCode: 'RUN_INTERRUPTED', points: 2 });
    expect(readdirSync(runs)).toEqual(['renamed-by-hand.json']);
    const onDisk = JSON.parse(readFileSync(join(runs, 'renamed-by-hand.json'), 'utf8')) as RunRecord;
    expect(onDisk.status).toBe('failed');
    expect(onDisk.points).toHaveLength(2);
  });
});

describe("a run of another machine sharing the folder", () => {
  it('is never marked interrupted by this one, whatever its pid is here', async () => {
    const { store, runs } = folder();
    const colleague = { name: `${thisMachine().name}-node-07`, machineId: 'a'.repeat(32), bootId: 'b'.repeat(32) };
    const text = put(runs, `${ID}.json`, running(3, { runnerPid: deadPid, runnerStartTicks: 12345, runnerHost: colleague }));
    expect((await store.list())[0]).toMatchObject({ status: 'running', points: 3 });
    expect((await store.get(ID)).status).toBe('running');
    expect(readFileSync(join(runs, `${ID}.json`), 'utf8')).toBe(text);
  });

  it('tells machines apart by name and machine id, and this machine after a reboot from another of its name', () => {
    const here = { name: 'gpu-node', machineId: 'm1', bootId: 'boot-now' };
    expect(whereRuns(here, here)).toBe('this-boot');
    expect(whereRuns({ ...here, name: 'gpu-node-2' }, here)).toBe('elsewhere');
    expect(whereRuns({ ...here, machineId: 'm2' }, here)).toBe('elsewhere');
    expect(whereRuns({ ...here, bootId: 'boot-before' }, here)).toBe('earlier-boot');
    // Two containers of one name and no machine id differ in their boots too: nothing can be said of either.
    expect(whereRuns({ ...here, machineId: null, bootId: 'boot-before' }, { ...here, machineId: null })).toBe('elsewhere');
    expect(whereRuns({ ...here, machineId: null, bootId: null }, here)).toBe('this-boot');
  });

  it.skipIf(thisMachine().machineId === null || thisMachine().bootId === null)('takes a run of this machine before its last boot for interrupted, though its pid is alive now', async () => {
    const { store, runs } = folder();
    put(runs, `${ID}.json`, running(2, { runnerPid: process.pid, runnerStartTicks: processStartTicks(process.pid), runnerHost: { ...thisMachine(), bootId: '0'.repeat(32) } }));
    expect((await store.get(ID)).error?.code).toBe('RUN_INTERRUPTED');
  });
});

describe('files in the runs folder that are not regular files', () => {
  it('skips a FIFO named like a record, without blocking, and says what it is', async () => {
    const { store, runs, warnings } = folder();
    put(runs, `${ID}.json`, fixture);
    const fifo = join(runs, 'waiting-forever.json');
    fifos.push(fifo);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect((await store.list()).map((r) => r.id)).toEqual([ID]);
    await expect(store.get('waiting-forever')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(warnings.join('\n')).toContain(`${fifo}: it is a FIFO (a named pipe), not a regular file`);
  }, 10_000);

  it('skips a symbolic link by its name, never following it and never echoing a byte of its target', async () => {
    const { store, runs, warnings } = folder();
    const outside = mkdtempSync(join(tmpdir(), 'gpu-lab-outside-'));
    writeFileSync(join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    symlinkSync(join(outside, 'passwd'), join(runs, 'passwd.json'));
    // A link to a valid record outside the folder is not followed either.
    put(outside, 'elsewhere.json', fixture);
    symlinkSync(join(outside, 'elsewhere.json'), join(runs, `${ID}.json`));
    expect(await store.list()).toEqual([]);
    const refused = await store.get('passwd').then(
      () => new Error('read'),
      (err: unknown) => err as Error,
    );
    expect(refused).toMatchObject({ code: 'NOT_FOUND' });
    const said = `${warnings.join('\n')}\n${refused.message}`;
    expect(said).toContain(`${join(runs, 'passwd.json')}: it is a symbolic link, not a regular file (not followed)`);
    expect(said).not.toContain('root:x');
    expect(said).not.toContain(outside);
  });

  it('never echoes the bytes of a regular file that is not JSON', async () => {
    const { store, runs, warnings } = folder();
    writeFileSync(join(runs, 'copied.json'), 'root:x:0:0:root:/root:/bin/bash\n');
    expect(await store.list()).toEqual([]);
    expect(warnings.join('\n')).toContain(`${join(runs, 'copied.json')}: not JSON`);
    expect(warnings.join('\n')).not.toContain('root:x');
  });

  it('skips a record over 64 MiB before reading it, naming its size', async () => {
    const { store, runs, warnings } = folder();
    put(runs, `${ID}.json`, fixture);
    const huge = join(runs, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 * 1024 + 1);
    expect((await store.list()).map((r) => r.id)).toEqual([ID]);
    expect(warnings.join('\n')).toContain(`${huge}: it holds 67108865 bytes, more than the 67108864 a run file may hold`);
  });
});

describe('deleting a run', () => {
  it('refuses one whose runner on this machine is alive, naming it, and deletes it once that runner is gone', async () => {
    const { store, runs } = folder();
    const runner = spawn('sleep', ['30']);
    try {
      const pid = runner.pid ?? 0;
      put(runs, `${ID}.json`, running(2, { runnerPid: pid, runnerStartTicks: processStartTicks(pid), runnerHost: thisMachine() }));
      await expect(store.delete(ID)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`is being measured on this machine (pid ${pid})`) });
      expect(existsSync(join(runs, `${ID}.json`))).toBe(true);
    } finally {
      runner.kill('SIGKILL');
    }
    await new Promise((resolve) => runner.once('exit', resolve));
    await store.delete(ID);
    expect(existsSync(join(runs, `${ID}.json`))).toBe(false);
  });

  it('refuses a path as a bad run id (INVALID_ARGUMENT), not as a run that is missing', async () => {
    const { store } = folder();
    for (const id of ['../../etc/passwd', 'a/b', '']) {
      await expect(store.get(id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store.delete(id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
  });
});
