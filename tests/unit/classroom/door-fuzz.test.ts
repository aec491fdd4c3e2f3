// A student's token fed hundreds of seeded calls on a class's server (every method, arguments of every kind, and
// another student's run, kernel run and queued run where an id goes): every call gets a coded answer without a stack,
// the server goes on serving, and nothing of the other student's or the teacher's changes: their records, their
// kernel run, their draft, the class's students and caps. A failure names the seed: GPU_LAB_FUZZ_SEED replays it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ACCESS } from '../../../main/classroom/access.ts';
import { processStartTicks } from '../../../main/engine/process-identity.ts';
import type { ApiMethod } from '../../../main/common/contract/index.ts';
import { FUZZ_SEED, Random, STACK_FRAME, anyMethod, argumentsFor, isCodedError } from '../serve/fuzz-cases.ts';
import type { ApiClient } from '../serve/ws-client.ts';
import { ask, join as joinClass, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer, Student } from './class-server.ts';

const CASES = 500;
// The teacher's run that holds the class's machine for as long as the fuzz lasts, however slow the machine: it waits
// for the CPU, which another program (a sleeping process with a lock of its own) holds until the test ends.
const HOLD = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };
const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };

let s: ClassServer;
let ana: Student;
let bob: Student;
let anaSocket: ApiClient;
let bobRuns: string[] = [];
let bobKernelRun = '';
let bobEntry = '';
let hold = '';
let otherProgram: ChildProcess | null = null;
const fileOf = (id: string): string => readFileSync(join(s.dataDir, 'runs', `${id}.json`), 'utf8');

beforeAll(async () => {
  const lockDir = mkdtempSync(join(tmpdir(), 'gpu-lab-fuzz-locks-'));
  otherProgram = spawn('sleep', ['3600'], { stdio: 'ignore' });
  const pid = otherProgram.pid ?? 0;
  const holder = { user: 'other', pid, startTicks: processStartTicks(pid), host: hostname(), use: 'bench', name: 'another program', device: 'cpu', since: new Date().toISOString(), token: 'other-program' };
  writeFileSync(join(lockDir, 'cpu.lock'), `${JSON.stringify(holder)}\n`);
  s = await startClassServer({ lockDir });
  ana = await joinClass(s, 'Ana');
  bob = await joinClass(s, 'Bob');
  const [a1 = '', a2 = '', ...others] = s.runIds;
  for (const id of [a1, a2]) await s.classroom.store.own('runs', id, ana.id);
  bobRuns = others;
  for (const id of bobRuns) await s.classroom.store.own('runs', id, bob.id);
  bobKernelRun = s.kernelRunIds[0] ?? '';
  await s.classroom.store.own('kernelRuns', bobKernelRun, bob.id);
  const bobSocket = await socketOf(s, bob.token);
  await ask(bobSocket, 'playground.saveDraft', ['saxpy', '// Bob’s']);
  // A run of the teacher's holds the machine; Bob's waits behind it.
  const teacher = await socketOf(s, s.classroom.teacherToken);
  hold = ((await ask(teacher, 'runs.startRun', [HOLD])).value as { runId: string }).runId;
  await ask(bobSocket, 'runs.startRun', [QUICK]);
  bobEntry = ((await ask(bobSocket, 'classroom.queue', [])).value as { entries: { id: string }[] }).entries[0]?.id ?? '';
  bobSocket.ws.close();
  teacher.ws.close();
  anaSocket = await socketOf(s, ana.token);
}, 60_000);

afterAll(async () => {
  anaSocket.ws.close();
  await s.close();
  otherProgram?.kill('SIGKILL');
});

// Arguments aimed at Bob: his ids where the method takes one.
function atBob(rng: Random, method: ApiMethod): unknown[] | null {
  const names = ACCESS[method].names;
  if (!names) return null;
  const probe = names([{ runIds: ['R'], kernelRunIds: ['K'] }, 'x']);
  if (method === 'reports.writeReport') return [{ runIds: [rng.pick(bobRuns)], ...(rng.chance(0.5) ? { kernelRunIds: [bobKernelRun] } : {}) }];
  if (probe.queueEntries) return [bobEntry];
  if (probe.kernelRuns) return [bobKernelRun];
  return method === 'runs.exportRun' ? [rng.pick(bobRuns), 'json'] : [rng.pick(bobRuns)];
}

// A call sent again while the connection is past its rate of requests (the fuzz sends as fast as it is answered): every
// case reaches the door. A refusal of the class's own (one run in the queue per student) is an answer like any other.
async function unthrottled(method: string, args: unknown[]): Promise<Record<string, unknown>> {
  for (;;) {
    const frame = await ask(anaSocket, method, args);
    const limit = (frame.error as { details?: { limit?: string } } | undefined)?.details?.limit;
    if (limit !== 'requests per second' && limit !== 'requests at once') return frame;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`a student’s token under ${CASES} seeded calls (seed ${FUZZ_SEED})`, () => {
  it('answers each with a code, never a stack, and leaves everything of Bob’s and the teacher’s as it was', async () => {
    const before = new Map(bobRuns.map((id) => [id, fileOf(id)]));
    const students = JSON.stringify(s.classroom.store.students());
    const caps = JSON.stringify(s.classroom.store.caps);
    const rng = new Random(FUZZ_SEED);
    const wrong: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const method = anyMethod(rng);
      const args = (rng.chance(0.35) ? atBob(rng, method) : null) ?? argumentsFor(rng, method, [...bobRuns, ...s.runIds]);
      const frame = await unthrottled(method, Array.isArray(args) ? args : [args]);
      const text = JSON.stringify(frame);
      if (frame.ok !== true && !isCodedError(frame.error)) wrong.push(`${method}: not coded: ${text.slice(0, 200)}`);
      if (STACK_FRAME.test(text)) wrong.push(`${method}: a stack: ${text.slice(0, 200)}`);
      if (text.includes('Bob')) wrong.push(`${method}: Bob's name: ${text.slice(0, 200)}`);
    }
    expect(wrong, `seed ${FUZZ_SEED}`).toEqual([]);
    for (const [id, bytes] of before) expect(fileOf(id), `Bob's run ${id}`).toBe(bytes);
    expect((await s.host.playground.getKernelRun(bobKernelRun)).id).toBe(bobKernelRun);
    expect(readFileSync(join(s.classroom.store.dir, 'students', bob.id, 'kernels', 'drafts', 'saxpy.cu'), 'utf8')).toBe('// Bob’s');
    expect(JSON.stringify(s.classroom.store.students())).toBe(students);
    expect(JSON.stringify(s.classroom.store.caps)).toBe(caps);
    expect(s.classroom.queue.view({ role: 'teacher' }, () => null).entries.map((e) => e.id)).toContain(bobEntry);
    expect((await s.host.runs.getRun(hold)).status).not.toBe('cancelled');
    // Still serving.
    expect((await unthrottled('classroom.session', [])).value).toMatchObject({ role: 'student', name: 'Ana' });
    await s.host.runs.cancelRun(hold);
  }, 240_000);
});
