// A class's server against its own students: a real serve-mode server with a class over a real lab host. A student's
// token is tried against every teacher method and against every other student's run id, kernel run id and queued
// run, each by name, and all are refused (another student's ids exactly as ids that do not exist); a browser that
// only holds the class link may only ask who it is; a method missing from the access table is refused to everyone.
import { readdirSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ACCESS } from '../../../main/classroom/access.ts';
import { studentServices } from '../../../main/classroom/class-services.ts';
import { checkCall } from '../../../main/classroom/door.ts';
import { API_METHODS } from '../../../main/common/contract/index.ts';
import type { ApiMethod } from '../../../main/common/contract/index.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import type { ApiClient } from '../serve/ws-client.ts';
import { ask, join, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer, Student } from './class-server.ts';

// Small enough to run in a moment on the CPU; long enough to keep the queue busy.
const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };
// A run that holds the machine for far longer than a test's setup (13 sizes up to 10⁸ elements, three operations);
// the tests cancel it once it has served its purpose.
const LONG = { lab: 'elementwise-breakeven', device: 'cpu', params: { minExponent: 2, maxExponent: 8 } };

let s: ClassServer;
let ana: Student;
let bob: Student;
let anaSocket: ApiClient;
// Ana's page as it listens, from before anything runs: every frame it is sent.
let anaPage: ApiClient;
let bobSocket: ApiClient;
let teacher: ApiClient;
let anaRun = '';
let bobRun = '';
let bobKernelRun = '';
let bobEntry = '';
let longRun = '';
const anaHeard: Record<string, unknown>[] = [];

beforeAll(async () => {
  s = await startClassServer();
  ana = await join(s, 'Ana');
  bob = await join(s, 'Bob');
  const [recordedA = '', recordedB = ''] = s.runIds;
  const [kernelB = ''] = s.kernelRunIds;
  // Runs the class already has: one of Ana's, one of Bob's, a kernel run of Bob's.
  await s.classroom.store.own('runs', recordedA, ana.id);
  await s.classroom.store.own('runs', recordedB, bob.id);
  await s.classroom.store.own('kernelRuns', kernelB, bob.id);
  anaRun = recordedA;
  bobRun = recordedB;
  bobKernelRun = kernelB;
  anaSocket = await socketOf(s, ana.token);
  anaPage = await socketOf(s, ana.token);
  void (async () => {
    for (let frame = await anaPage.next(); frame !== null; frame = await anaPage.next()) anaHeard.push(frame);
  })();
  bobSocket = await socketOf(s, bob.token);
  teacher = await socketOf(s, s.classroom.teacherToken);
  // The teacher's long run holds the machine; Bob's run waits behind it: a queued run of Bob's to aim at.
  longRun = ((await ask(teacher, 'runs.startRun', [LONG])).value as { runId: string }).runId;
  await ask(bobSocket, 'runs.startRun', [QUICK]);
  const queue = (await ask(bobSocket, 'classroom.queue', [])).value as { entries: { id: string; mine: boolean }[] };
  bobEntry = queue.entries.find((e) => e.mine)?.id ?? '';
}, 60_000);

afterAll(async () => {
  for (const c of [anaSocket, anaPage, bobSocket, teacher]) c.ws.close();
  await s.close();
});

// The methods only the teacher may call, each by name: a method added to the table for the teacher alone must be
// added here.
const UPLOAD_ID = 'u-0123456789abcdef';
const TEACHER_ONLY: Partial<Record<ApiMethod, () => unknown[]>> = {
  'imports.begin': () => [[{ name: 'runs.tar.gz', bytes: 1024 }]],
  'imports.sendPart': () => [UPLOAD_ID, { file: 0, offset: 0, base64: 'AAAA' }],
  'imports.finish': () => [UPLOAD_ID],
  'imports.cancel': () => [UPLOAD_ID],
  'classroom.listStudents': () => [],
  'classroom.removeStudent': () => [bob.id],
  'classroom.setCaps': () => [{ maxPoints: 100_000, maxBytes: 2 ** 50, maxSeconds: 86_400 }],
  // The class's table and exports hold every student's name and numbers.
  'classroom.classOverview': () => [],
  'classroom.classCsv': () => [],
  'classroom.writeClassReport': () => [{ locale: 'es' }],
};

// Every method that names a run, a kernel run or a queued run, called by Ana with Bob's: each must be here.
const OTHERS_IDS: Partial<Record<ApiMethod, () => unknown[][]>> = {
  'runs.cancelRun': () => [[bobRun]],
  'runs.getRun': () => [[bobRun]],
  'runs.getRunProgress': () => [[bobRun]],
  'runs.deleteRun': () => [[bobRun]],
  'runs.exportRun': () => [
    [bobRun, 'json'],
    [bobRun, 'csv-samples'],
  ],
  'reports.writeReport': () => [[{ runIds: [bobRun] }], [{ runIds: [anaRun, bobRun] }], [{ runIds: [anaRun], kernelRunIds: [bobKernelRun] }]],
  'playground.getKernelRun': () => [[bobKernelRun]],
  'playground.deleteKernelRun': () => [[bobKernelRun]],
  'classroom.leaveQueue': () => [[bobEntry]],
  'classroom.classDistribution': () => [[bobRun]],
};

// Arguments each method's schema takes: what a guest is refused is refused by the door, not by the schema.
const VALID: Record<ApiMethod, () => unknown[]> = {
  'devices.listDevices': () => [],
  'devices.inspectDevices': () => [],
  'devices.readTelemetry': () => ['cuda:0'],
  'devices.inspectPython': () => [],
  'labs.listLabs': () => ['es'],
  'labs.kernelSource': () => ['shaders/cuda/vector_function.cu'],
  'labs.validateParams': () => ['matmul', {}],
  'labs.referenceResults': () => ['matmul'],
  'labs.timeBounds': () => ['cpu'],
  'runs.startRun': () => [QUICK],
  'runs.cancelRun': () => [anaRun],
  'runs.listRuns': () => [],
  'runs.getRun': () => [anaRun],
  'runs.getRunProgress': () => [anaRun],
  'runs.deleteRun': () => [anaRun],
  'runs.exportRun': () => [anaRun, 'json'],
  'imports.begin': () => [[{ name: 'runs.zip', bytes: 10 }]],
  'imports.sendPart': () => [UPLOAD_ID, { file: 0, offset: 0, base64: 'AAAA' }],
  'imports.finish': () => [UPLOAD_ID],
  'imports.cancel': () => [UPLOAD_ID],
  'reports.writeReport': () => [{ runIds: [anaRun] }],
  'reports.labsReportContents': () => ['cpu'],
  'reports.writeLabsReport': () => [{ device: 'cpu' }],
  'reports.compareDevices': () => ['matmul'],
  'reports.writeDevicesReport': () => [{ labs: ['matmul'] }],
  'playground.listExercises': () => ['en'],
  'playground.status': () => [],
  'playground.runKernel': () => [{ exercise: 'saxpy', source: '__global__ void saxpy() {}' }],
  'playground.listKernelRuns': () => ['saxpy'],
  'playground.getKernelRun': () => [bobKernelRun],
  'playground.deleteKernelRun': () => [bobKernelRun],
  'playground.loadDraft': () => ['saxpy'],
  'playground.saveDraft': () => ['saxpy', '// a guest’s'],
  'classroom.session': () => [],
  'classroom.queue': () => [],
  'classroom.leaveQueue': () => [bobEntry],
  'classroom.classDistribution': () => [anaRun],
  'classroom.listStudents': () => [],
  'classroom.removeStudent': () => [ana.id],
  'classroom.setCaps': () => [{ maxPoints: 1, maxBytes: 1024, maxSeconds: 10 }],
  'classroom.classOverview': () => [],
  'classroom.classCsv': () => [],
  'classroom.writeClassReport': () => [{}],
};

function refusal(frame: Record<string, unknown>): { code?: string; message?: string } {
  expect(frame.ok, JSON.stringify(frame).slice(0, 300)).toBe(false);
  return frame.error as { code?: string; message?: string };
}

describe('a student’s token against the teacher’s methods', () => {
  it('names in this test every method the table keeps for the teacher', () => {
    const teacherOnly = API_METHODS.filter((m) => !ACCESS[m].roles.includes('student'));
    expect(teacherOnly.sort()).toEqual(Object.keys(TEACHER_ONLY).sort());
  });

  it.each(Object.keys(TEACHER_ONLY) as ApiMethod[])('%s is refused FORBIDDEN, and does nothing', async (method) => {
    const error = refusal(await ask(anaSocket, method, TEACHER_ONLY[method]?.() ?? []));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain(method);
    // Bob is still in the class, the caps are the teacher's, and no upload was opened in the class's folder.
    expect(s.classroom.store.student(bob.id)?.name).toBe('Bob');
    expect(readdirSync(s.dataDir).filter((n) => n.startsWith('.import-'))).toEqual([]);
    expect(s.classroom.store.caps.maxPoints).toBe(400);
  });
});

describe('the class’s services behind the door', () => {
  it.each(Object.keys(TEACHER_ONLY).filter((m) => m.startsWith('classroom.')) as ApiMethod[])('refuse %s to a student a second time', async (method) => {
    const parts = { host: s.host, store: s.classroom.store, queue: s.classroom.queue, runs: s.classroom.runs, exports: s.classroom.exports, removeStudent: (id: string) => s.classroom.removeStudent(id) };
    const services = studentServices(parts, ana.id).classroom as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const name = method.slice('classroom.'.length);
    await expect(services[name]?.(...(TEACHER_ONLY[method]?.() ?? []))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(s.classroom.store.student(bob.id)?.name).toBe('Bob');
    expect(s.classroom.store.caps.maxPoints).toBe(400);
  });
});

describe('a student’s token against another student’s runs', () => {
  it('names in this test every method that takes a run id, a kernel run id or a queued run', () => {
    const naming = API_METHODS.filter((m) => ACCESS[m].names !== undefined && ACCESS[m].roles.includes('student'));
    expect(naming.sort()).toEqual(Object.keys(OTHERS_IDS).sort());
  });

  it.each(Object.keys(OTHERS_IDS) as ApiMethod[])('%s with Bob’s ids is refused as if they did not exist, and leaves them be', async (method) => {
    expect(bobEntry).toMatch(/^q-/);
    for (const args of OTHERS_IDS[method]?.() ?? []) {
      const error = refusal(await ask(anaSocket, method, args));
      expect(error.code, `${method}(${JSON.stringify(args)})`).toBe('NOT_FOUND');
      // The same answer as for an id nobody has: trying ids tells nothing.
      const made = JSON.stringify(args).replaceAll(bobRun, 'no-such-run').replaceAll(bobKernelRun, 'no-such-kernel-run').replaceAll(bobEntry, 'q-000000000000');
      const nobodys = refusal(await ask(anaSocket, method, JSON.parse(made) as unknown[]));
      expect(nobodys.code).toBe('NOT_FOUND');
      expect(error.message?.replaceAll(bobRun, 'X').replaceAll(bobKernelRun, 'X').replaceAll(bobEntry, 'X')).toBe(
        nobodys.message?.replaceAll('no-such-run', 'X').replaceAll('no-such-kernel-run', 'X').replaceAll('q-000000000000', 'X'),
      );
    }
    // Bob's things are all still there, and his queued run still queued.
    expect((await ask(bobSocket, 'runs.getRun', [bobRun])).ok).toBe(true);
    expect((await ask(bobSocket, 'playground.getKernelRun', [bobKernelRun])).ok).toBe(true);
    const queue = (await ask(bobSocket, 'classroom.queue', [])).value as { entries: { id: string }[] };
    expect(queue.entries.map((e) => e.id)).toContain(bobEntry);
  });

  it('lists, reports and events hold only the student’s own runs', async () => {
    const runs = (await ask(anaSocket, 'runs.listRuns', [])).value as { id: string }[];
    expect(runs.map((r) => r.id)).toEqual([anaRun]);
    const kernels = (await ask(anaSocket, 'playground.listKernelRuns', [])).value as { id: string }[];
    expect(kernels).toEqual([]);
    const contents = (await ask(anaSocket, 'reports.labsReportContents', ['cpu'])).value as { runs: { id: string }[] };
    expect(contents.runs.map((r) => r.id)).toEqual([anaRun]);
    // Her devices compared: her run alone, whatever lab Bob's is of.
    for (const lab of ['dtypes', 'elementwise-breakeven', 'matmul-breakeven', 'matmul', 'timing-pitfalls', 'transfer', 'vector-function']) {
      const devices = (await ask(anaSocket, 'reports.compareDevices', [lab])).value as { columns: { runId: string }[] };
      for (const c of devices.columns) expect(c.runId).toBe(anaRun);
    }
    const queue = (await ask(anaSocket, 'classroom.queue', [])).value as { entries: unknown[]; devices: { runs: number }[] };
    expect(queue.entries).toEqual([]);
    // Bob's queued run and the teacher's are counted, without a name or an id.
    expect(queue.devices.reduce((n, d) => n + d.runs, 0)).toBe(2);
    // Ana's page heard nothing of Bob's run or the teacher's, though both changed while it was open, and the queue
    // as Ana may see it: no entry of anyone else's.
    await new Promise((r) => setTimeout(r, 500));
    const queueEvents = anaHeard.filter((f) => f.event === 'classroom.onDidChangeQueue');
    expect(queueEvents.length).toBeGreaterThan(0);
    for (const f of queueEvents) expect((f.payload as { entries: unknown[] }).entries).toEqual([]);
    const heardRuns = anaHeard.filter((f) => f.event === 'runs.onDidChangeRun').map((f) => (f.payload as { runId: string }).runId);
    expect(heardRuns).toEqual([]);
  });

  it('keeps a student’s drafts apart from another’s and from the machine’s', async () => {
    await ask(bobSocket, 'playground.saveDraft', ['saxpy', '// Bob’s draft']);
    expect((await ask(anaSocket, 'playground.loadDraft', ['saxpy'])).value).toBeNull();
    expect((await ask(bobSocket, 'playground.loadDraft', ['saxpy'])).value).toBe('// Bob’s draft');
    expect(await s.host.playground.loadDraft('saxpy')).toBeNull();
  });

  it('lets the teacher import a run into the class, which no student then sees as theirs', async () => {
    const body = Buffer.from(JSON.stringify({ ...(((await ask(teacher, 'runs.getRun', [anaRun])).value as object)), id: 'imported-by-teacher' }));
    const begun = (await ask(teacher, 'imports.begin', [[{ name: 'theirs.json', bytes: body.length }]])).value as { importId: string };
    expect((await ask(teacher, 'imports.sendPart', [begun.importId, { file: 0, offset: 0, base64: body.toString('base64') }])).ok).toBe(true);
    const report = (await ask(teacher, 'imports.finish', [begun.importId])).value as { sources: { imported: { id: string }[] }[] };
    expect(report.sources[0]?.imported.map((r) => r.id)).toEqual(['imported-by-teacher']);
    expect(((await ask(anaSocket, 'runs.listRuns', [])).value as { id: string }[]).map((r) => r.id)).toEqual([anaRun]);
    expect((await ask(anaSocket, 'runs.getRun', ['imported-by-teacher'])).ok).toBe(false);
  });

  it('lets the teacher read every student’s run', async () => {
    expect((await ask(teacher, 'runs.getRun', [bobRun])).ok).toBe(true);
    const students = (await ask(teacher, 'classroom.listStudents', [])).value as { name: string; runs: number }[];
    expect(students.map((x) => [x.name, x.runs])).toEqual([
      ['Ana', 1],
      ['Bob', 2],
    ]);
  });
});

describe('a browser with the class link that has not joined', () => {
  let guest: ApiClient;
  beforeAll(async () => {
    guest = await socketOf(s, s.classroom.classToken);
  });
  afterAll(() => guest.ws.close());

  it('may ask who it is', async () => {
    expect((await ask(guest, 'classroom.session', [])).value).toEqual({ role: 'guest', className: 'HPC 2026', name: null, caps: null });
  });

  it.each(API_METHODS.filter((m) => m !== 'classroom.session'))('is refused %s, with arguments its schema takes', async (method) => {
    const frame = await ask(guest, method, VALID[method]());
    expect(refusal(frame).code).toBe('FORBIDDEN');
  });
});

describe('the table of who may call what', () => {
  it('has an entry for every method of the contract', () => {
    expect(API_METHODS.filter((m) => !Object.hasOwn(ACCESS, m))).toEqual([]);
  });

  it('refuses a method it has no entry for, to the teacher too', () => {
    const checks = { valid: () => true, owns: () => true };
    for (const seat of [{ role: 'teacher' } as const, { role: 'student', id: 's-000000000000' } as const]) {
      let caught: unknown;
      try {
        checkCall(seat, 'runs.wipeEverything', [], checks);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(GpuLabError);
      expect((caught as GpuLabError).code).toBe('FORBIDDEN');
      expect((caught as GpuLabError).details?.reason).toBe('not-in-table');
    }
  });

  it('ends with the teacher’s long run cancelled and Bob’s run done', async () => {
    await ask(teacher, 'runs.cancelRun', [longRun]);
    await s.host.runs.whenIdle();
    const runs = (await ask(bobSocket, 'runs.listRuns', [])).value as { id: string; status: string }[];
    expect(runs.filter((r) => r.id !== bobRun).map((r) => r.status)).toEqual(['completed']);
  }, 60_000);
});
