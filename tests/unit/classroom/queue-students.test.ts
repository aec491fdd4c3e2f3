// The class's queue as ten students meet it over WebSockets: each joins and starts a small CPU run at once; every run
// completes exactly once, one at a time, in the order the queue took them, none lost, and each student hears of
// their own run only. A student has one place in the queue; a run over the teacher's caps is refused before it takes
// one; and while a `gpu-lab run` of the same machine holds the device, the class's runs wait for it and the students
// are told the device is busy with another program, without a time.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { QUEUE_VIEW } from '../../../main/common/contract/classroom.ts';
import type { QueueView } from '../../../main/common/contract/classroom.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import type { ApiClient } from '../serve/ws-client.ts';
import { ask, join, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer, Student } from './class-server.ts';

const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };
// A run that holds the machine for far longer than a test's setup (13 sizes up to 10⁸ elements, three operations);
// the tests cancel it once it has served its purpose.
const LONG = { lab: 'elementwise-breakeven', device: 'cpu', params: { minExponent: 2, maxExponent: 8 } };
const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

const lockDir = joinPath(mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-locks-')), 'locks');
let s: ClassServer;
let teacher: ApiClient;
// The teacher's page as it listens: a socket of its own, which only hears.
let teacherPage: ApiClient;
const teacherViews: QueueView[] = [];

beforeAll(async () => {
  s = await startClassServer({ lockDir });
  teacher = await socketOf(s, s.classroom.teacherToken);
  teacherPage = await socketOf(s, s.classroom.teacherToken);
  void (async () => {
    for (let frame = await teacherPage.next(); frame !== null; frame = await teacherPage.next()) {
      if (frame.event === 'classroom.onDidChangeQueue') teacherViews.push(QUEUE_VIEW.parse(frame.payload));
    }
  })();
});
afterAll(async () => {
  teacher.ws.close();
  teacherPage.ws.close();
  await s.close();
});

// The entries' run ids in the order the teacher first saw each entry: entries join the end of the queue.
function queueOrder(): string[] {
  const runOf = new Map<string, string>();
  const order: string[] = [];
  for (const view of teacherViews) {
    for (const e of view.entries) {
      if (!order.includes(e.id)) order.push(e.id);
      if (e.runId) runOf.set(e.id, e.runId);
    }
  }
  return order.map((id) => runOf.get(id) ?? `(no run for ${id})`);
}

describe('ten students and one queue', () => {
  it('runs every student’s run once, one at a time, in the order queued, none lost, each heard by its student only', async () => {
    const hostEvents: RunEvent[] = [];
    const sub = s.host.runs.onDidChangeRun((e) => hostEvents.push(e));
    // The teacher's run holds the machine while the ten queue, so that all are waiting at once.
    const hold = ((await ask(teacher, 'runs.startRun', [LONG])).value as { runId: string }).runId;
    const students: Student[] = [];
    for (let i = 0; i < 10; i++) students.push(await join(s, `Student ${i + 1}`));
    const sockets = await Promise.all(students.map((st) => socketOf(s, st.token)));
    const heard: Record<string, unknown>[][] = students.map(() => []);
    const answers = await Promise.all(sockets.map((socket, i) => ask(socket, 'runs.startRun', [QUICK], heard[i])));
    const runIds = answers.map((a) => (a.value as { runId: string }).runId);
    expect(new Set(runIds).size).toBe(10);

    // Each student waits with the runs ahead of them counted, their own entry only in their view.
    const views = await Promise.all(sockets.map(async (socket) => QUEUE_VIEW.parse((await ask(socket, 'classroom.queue', [])).value)));
    const positions = views.map((v) => {
      expect(v.entries).toHaveLength(1);
      expect(v.entries[0]?.mine).toBe(true);
      return v.entries[0]?.ahead ?? -1;
    });
    expect([...positions].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // A second run of a student with one queued is refused, and takes no place.
    const second = await ask(sockets[9] as ApiClient, 'runs.startRun', [QUICK]);
    expect(second).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', details: { limit: 'runs queued per student' } } });

    await ask(teacher, 'runs.cancelRun', [hold]);
    await Promise.all(
      sockets.map(async (socket, i) => {
        for (;;) {
          const done = heard[i]?.find((f) => f.event === 'runs.onDidChangeRun' && (f.payload as RunEvent).kind === 'completed');
          if (done) return;
          const frame = await socket.next();
          if (frame) heard[i]?.push(frame);
        }
      }),
    );
    await s.host.runs.whenIdle();
    sub.dispose();

    // In the queue's order: the teacher's, then the ten as the queue took them.
    expect(queueOrder()[0]).toBe(hold);
    const order = queueOrder().slice(1);
    expect([...order].sort()).toEqual([...runIds].sort());
    const started = hostEvents.filter((e) => e.kind === 'started').map((e) => e.runId);
    const completed = hostEvents.filter((e) => e.kind === 'completed').map((e) => e.runId);
    expect(started.filter((id) => id !== hold)).toEqual(order);
    expect(completed).toEqual(order);
    // One at a time: every run started after the one before it ended.
    const ends = hostEvents.filter((e) => e.kind === 'started' || e.kind === 'completed' || e.kind === 'cancelled').map((e) => `${e.kind}:${e.runId}`);
    for (let i = 1; i < order.length; i++) expect(ends.indexOf(`started:${order[i]}`)).toBeGreaterThan(ends.indexOf(`completed:${order[i - 1]}`));
    // Each heard of their own run only, completed once; each lists their own run only.
    for (const [i, socket] of sockets.entries()) {
      const runEvents = (heard[i] ?? []).filter((f) => f.event === 'runs.onDidChangeRun').map((f) => f.payload as RunEvent);
      expect(new Set(runEvents.map((e) => e.runId))).toEqual(new Set([runIds[i]]));
      expect(runEvents.filter((e) => e.kind === 'completed')).toHaveLength(1);
      const mine = (await ask(socket, 'runs.listRuns', [])).value as { id: string; status: string }[];
      expect(mine.map((r) => [r.id, r.status])).toEqual([[runIds[i], 'completed']]);
      socket.ws.close();
    }
    const stored = (await s.host.runs.listRuns()).filter((r) => runIds.includes(r.id));
    expect(stored.map((r) => r.status)).toEqual(Array(10).fill('completed'));
    expect(QUEUE_VIEW.parse((await ask(teacher, 'classroom.queue', [])).value).entries).toEqual([]);
  }, 180_000);

  it('refuses a run over the teacher’s caps before it takes a place, naming the cap', async () => {
    const zoe = await join(s, 'Zoe');
    const socket = await socketOf(s, zoe.token);
    expect((await ask(teacher, 'classroom.setCaps', [{ maxPoints: 1, maxBytes: 4 * 2 ** 30, maxSeconds: 600 }])).ok).toBe(true);
    const points = await ask(socket, 'runs.startRun', [QUICK]);
    expect(points).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { cap: 'maxPoints', limit: 1 } } });
    await ask(teacher, 'classroom.setCaps', [{ maxPoints: 400, maxBytes: 1024, maxSeconds: 600 }]);
    const bytes = await ask(socket, 'runs.startRun', [{ ...QUICK, params: { ...QUICK.params, elements: 1_000_000 } }]);
    expect(bytes).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { cap: 'maxBytes', limit: 1024 } } });
    await ask(teacher, 'classroom.setCaps', [{ maxPoints: 400, maxBytes: 4 * 2 ** 30, maxSeconds: 10 }]);
    const seconds = await ask(socket, 'runs.startRun', [QUICK]);
    expect(seconds).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { cap: 'maxSeconds', limit: 10 } } });
    expect((error(seconds).message)).toMatch(/the teacher's cap maxSeconds/);
    // A kernel run too: sgemm at N = 16384 holds three matrices of 1 GiB.
    await ask(teacher, 'classroom.setCaps', [{ maxPoints: 400, maxBytes: 2 ** 30, maxSeconds: 600 }]);
    const kernel = await ask(socket, 'playground.runKernel', [{ exercise: 'sgemm', source: '__global__ void sgemm() {}', size: 16384 }]);
    expect(kernel).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { cap: 'maxBytes', value: 3 * 2 ** 30, limit: 2 ** 30 } } });
    // The teacher's own runs are held to none, and none of Zoe's took a place.
    expect(QUEUE_VIEW.parse((await ask(socket, 'classroom.queue', [])).value).entries).toEqual([]);
    await ask(teacher, 'classroom.setCaps', [{ maxPoints: 400, maxBytes: 4 * 2 ** 30, maxSeconds: 600 }]);
    socket.ws.close();
  }, 60_000);
});

describe('a run past its time limit', () => {
  it('is stopped, keeps the points it measured, says why, and gives its turn to the next', async () => {
    const kim = await join(s, 'Kim');
    const socket = await socketOf(s, kim.token);
    const long = ((await ask(teacher, 'runs.startRun', [LONG])).value as { runId: string }).runId;
    const next = ((await ask(socket, 'runs.startRun', [QUICK])).value as { runId: string }).runId;
    await new Promise<void>((resolve) => {
      const sub = s.host.runs.onDidChangeRun((e) => {
        if (e.runId === long && e.kind === 'point') {
          sub.dispose();
          resolve();
        }
      });
    });
    // What the queue's timer does at the limit (the timer itself: class-queue.test.ts).
    s.classroom.runs.pastLimit(long, 42);
    await s.host.runs.whenIdle();
    const stopped = await s.host.runs.getRun(long);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.points.some((p) => p.status === 'ok')).toBe(true);
    expect(stopped.warnings.join(' ')).toContain('its limit of 42 s');
    expect((await s.host.runs.getRun(next)).status).toBe('completed');
    socket.ws.close();
  }, 120_000);
});

function error(frame: Record<string, unknown>): { message: string } {
  return frame.error as { message: string };
}

describe('a run of another program on the same machine', () => {
  it('keeps the device; the class’s runs wait for it, and the students are told so, with no time', async () => {
    const data = mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-cli-'));
    const cli = spawn(process.execPath, [bin, 'run', 'vector-function', '--device', 'cpu', '--param', 'elements=2000000', '--param', 'repeats=1000', '--data-dir', data, '--quiet'], {
      env: { ...process.env, GPU_LAB_LOCK_DIR: lockDir },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => cli.on('exit', resolve));
    try {
      for (let i = 0; i < 300 && !existsSync(joinPath(lockDir, 'cpu.lock')); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(joinPath(lockDir, 'cpu.lock'))).toBe(true);
      const [yan, ivo] = [await join(s, 'Yan'), await join(s, 'Ivo')];
      const [first, second] = [await socketOf(s, yan.token), await socketOf(s, ivo.token)];
      const runId = ((await ask(first, 'runs.startRun', [QUICK])).value as { runId: string }).runId;
      await ask(second, 'runs.startRun', [QUICK]);
      let view: QueueView | null = null;
      for (let i = 0; i < 100; i++) {
        view = QUEUE_VIEW.parse((await ask(second, 'classroom.queue', [])).value);
        if (view.busyWithOtherProgram.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(view?.busyWithOtherProgram.map((b) => b.device)).toEqual(['cpu']);
      expect(view?.entries[0]).toMatchObject({ ahead: 1, atMostSeconds: null, state: 'waiting' });
      expect((await s.host.runs.getRun(runId)).status).toBe('queued');
      // The program ends (Ctrl-C): the class's runs go on, in order.
      cli.kill('SIGINT');
      await exited;
      await new Promise<void>((resolve) => {
        const sub = s.host.runs.onDidChangeRun((e) => {
          if (e.kind === 'completed' && e.runId !== runId) {
            sub.dispose();
            resolve();
          }
        });
      });
      expect((await s.host.runs.getRun(runId)).status).toBe('completed');
      first.ws.close();
      second.ws.close();
    } finally {
      cli.kill('SIGKILL');
    }
  }, 120_000);
});
