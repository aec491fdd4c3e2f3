// Thirty students over WebSockets while the teacher's view is open: each joins and queues a small CPU run at once,
// behind a run of the teacher's that holds the machine. Every run completes exactly once, in the order the queue took
// them, none lost; each student hears of, lists and reads their own run only (another's is NOT_FOUND); and the
// teacher's view, reading the class as runs end (as the page does), ends with every student's run in its table, and
// the class's CSV with a row for each. How fast the page answers meanwhile is the UI benchmark's to print
// (scripts/bench-ui.mjs --classroom 30), not this test's to assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CLASS_OVERVIEW, QUEUE_VIEW } from '../../../main/common/contract/classroom.ts';
import type { ClassOverview, QueueView } from '../../../main/common/contract/classroom.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import type { ApiClient } from '../serve/ws-client.ts';
import { ask, join, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer, Student } from './class-server.ts';
import { readCsv } from './csv-reader.ts';

const STUDENTS = 30;
const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };
const LONG = { lab: 'vector-function', device: 'cpu', params: { elements: 2_000_000, repeats: 1000 } };

let s: ClassServer;
let teacher: ApiClient;
// The teacher's view as it listens: the queue as it moves, and the class read again whenever a run ends.
let view: ApiClient;
const queueViews: QueueView[] = [];
const overviews: ClassOverview[] = [];
let reading: Promise<void> = Promise.resolve();

beforeAll(async () => {
  s = await startClassServer();
  teacher = await socketOf(s, s.classroom.teacherToken);
  view = await socketOf(s, s.classroom.teacherToken);
  const viewAsks = await socketOf(s, s.classroom.teacherToken);
  void (async () => {
    for (let frame = await view.next(); frame !== null; frame = await view.next()) {
      if (frame.event === 'classroom.onDidChangeQueue') queueViews.push(QUEUE_VIEW.parse(frame.payload));
      if (frame.event === 'runs.onDidChangeRun' && (frame.payload as RunEvent).kind === 'completed') {
        // Kept to one read at a time, as the page reads; a read the end of the test cut short is not the test's.
        reading = reading
          .then(async () => {
            overviews.push(CLASS_OVERVIEW.parse((await ask(viewAsks, 'classroom.classOverview', [])).value));
          })
          .catch(() => undefined);
      }
    }
  })();
}, 60_000);

afterAll(async () => {
  teacher.ws.close();
  view.ws.close();
  await s.close();
});

// The entries' run ids in the order the teacher's view first saw each entry: entries join the end of the queue.
function queueOrder(): string[] {
  const runOf = new Map<string, string>();
  const order: string[] = [];
  for (const v of queueViews) {
    for (const e of v.entries) {
      if (!order.includes(e.id)) order.push(e.id);
      if (e.runId) runOf.set(e.id, e.runId);
    }
  }
  return order.map((id) => runOf.get(id) ?? `(no run for ${id})`);
}

describe(`${STUDENTS} students and the teacher’s view`, () => {
  it('runs every student’s run once, in the order queued, none lost, each seen by its student and the teacher only', async () => {
    const hostEvents: RunEvent[] = [];
    const sub = s.host.runs.onDidChangeRun((e) => hostEvents.push(e));
    const hold = ((await ask(teacher, 'runs.startRun', [LONG])).value as { runId: string }).runId;
    const students: Student[] = await Promise.all(Array.from({ length: STUDENTS }, (_, i) => join(s, `Student ${String(i + 1).padStart(2, '0')}`)));
    const sockets = await Promise.all(students.map((st) => socketOf(s, st.token)));
    const heard: Record<string, unknown>[][] = students.map(() => []);
    const answers = await Promise.all(sockets.map((socket, i) => ask(socket, 'runs.startRun', [QUICK], heard[i])));
    const runIds = answers.map((a, i) => {
      expect(a.ok, `${students[i]?.name}: ${JSON.stringify(a.error)}`).toBe(true);
      return (a.value as { runId: string }).runId;
    });
    expect(new Set(runIds).size).toBe(STUDENTS);

    await ask(teacher, 'runs.cancelRun', [hold]);
    await Promise.all(
      sockets.map(async (socket, i) => {
        for (;;) {
          if (heard[i]?.some((f) => f.event === 'runs.onDidChangeRun' && (f.payload as RunEvent).kind === 'completed')) return;
          const frame = await socket.next();
          if (frame) heard[i]?.push(frame);
        }
      }),
    );
    await s.host.runs.whenIdle();
    sub.dispose();

    // In the queue's order, each started after the one before it ended, each completed once.
    const order = queueOrder().filter((id) => id !== hold);
    expect([...order].sort()).toEqual([...runIds].sort());
    expect(hostEvents.filter((e) => e.kind === 'started' && e.runId !== hold).map((e) => e.runId)).toEqual(order);
    // The teacher's run may have ended before it was cancelled: it is not the class's.
    expect(hostEvents.filter((e) => e.kind === 'completed' && e.runId !== hold).map((e) => e.runId)).toEqual(order);
    const ends = hostEvents.filter((e) => (e.kind === 'started' || e.kind === 'completed') && e.runId !== hold).map((e) => `${e.kind}:${e.runId}`);
    for (let i = 1; i < order.length; i++) expect(ends.indexOf(`started:${order[i]}`)).toBeGreaterThan(ends.indexOf(`completed:${order[i - 1]}`));

    for (const [i, socket] of sockets.entries()) {
      const own = runIds[i] ?? '';
      const neighbour = runIds[(i + 1) % STUDENTS] ?? '';
      const events = (heard[i] ?? []).filter((f) => f.event === 'runs.onDidChangeRun').map((f) => f.payload as RunEvent);
      expect(new Set(events.map((e) => e.runId))).toEqual(new Set([own]));
      expect(events.filter((e) => e.kind === 'completed')).toHaveLength(1);
      const listed = (await ask(socket, 'runs.listRuns', [])).value as { id: string; status: string }[];
      expect(listed.map((r) => [r.id, r.status])).toEqual([[own, 'completed']]);
      expect(await ask(socket, 'runs.getRun', [neighbour])).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect(await ask(socket, 'classroom.classOverview', [])).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      socket.ws.close();
    }

    // The teacher's view read the class as the runs ended, and ends with every student's run in its table.
    await reading;
    expect(overviews.length).toBeGreaterThan(0);
    const last = CLASS_OVERVIEW.parse((await ask(teacher, 'classroom.classOverview', [])).value);
    const rows = last.labs.find((l) => l.lab === 'vector-function')?.setups.flatMap((x) => x.rows) ?? [];
    expect(rows.map((r) => r.runId).sort()).toEqual([...runIds].sort());
    expect(rows.map((r) => r.student).sort()).toEqual(students.map((st) => st.name).sort());
    expect(rows.every((r) => r.status === 'completed')).toBe(true);
    expect(last.labs.find((l) => l.lab === 'vector-function')?.notRun).toEqual([]);
    // Each view the teacher read held only runs that had completed, never one twice.
    for (const o of overviews) {
      const ids = o.labs.flatMap((l) => l.setups.flatMap((x) => x.rows.map((r) => r.runId)));
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(runIds).toContain(id);
    }
    const csv = readCsv(((await ask(teacher, 'classroom.classCsv', [])).value as { text: string }).text);
    expect(csv.slice(1).map((r) => r[5]).sort()).toEqual([...runIds].sort());
  }, 400_000);
});
