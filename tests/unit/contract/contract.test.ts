// The contract's table against the code that implements it: every method called over a real serve-mode server on a
// real lab host (compute host included, on this machine's CPU), through the one door, with valid arguments, over a
// data folder of recorded runs and kernel runs. Each answer must parse with its method's result schema, whose
// objects are strict all the way down: an implementation that answers a field the table does not declare, or lacks
// one it declares, fails here. Every event the runs send (started, progress, point, finding, completed, cancelled,
// failed) is parsed with its payload's schema the same way. And every argument of every method is refused at the
// door when it is wrong, naming the method, the argument and what is expected.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { createLabHost } from '../../../main/app/lab-host.ts';
import { API_EVENTS, API_METHODS, eventSpec, methodSpec } from '../../../main/common/contract/index.ts';
import type { ApiEvent, ApiMethod } from '../../../main/common/contract/index.ts';
import { RUN_EVENT } from '../../../main/common/contract/runs.ts';
import type { RunEvent } from '../../../main/common/contract/runs.ts';
import type { ErrorCode } from '../../../main/common/errors.ts';
import { startServer } from '../../../main/serve/server.ts';
import type { RunningServer } from '../../../main/serve/server.ts';
import { storedRunsFolder } from '../serve/fuzz-cases.ts';
import { call, openApiSocket } from '../serve/ws-client.ts';
import type { ApiClient } from '../serve/ws-client.ts';
import { notStrictObjects } from './strict-schemas.ts';

const TOKEN = 'contract-token';
const KERNEL_FIXTURES = fileURLToPath(new URL('../../fixtures/kernel-runs/', import.meta.url));
// Small enough to run in a moment on the CPU (its GPU series are waived).
const QUICK = { lab: 'vector-function', device: 'cpu', params: { elements: 1000, repeats: 1, warmup: 0 } };
// Long enough to be caught running: its progress read, then cancelled, or its compute host killed.
const LONG = { lab: 'vector-function', device: 'cpu', params: { elements: 2_000_000, repeats: 1000 } };
const SAXPY = '__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n) {}\n';

// The recorded H100 kernel runs, each under an id of its own here.
const data = storedRunsFolder();
const kernelsDir = join(data.dataDir, 'kernels', 'runs');
mkdirSync(kernelsDir, { recursive: true });
const kernelRunIds = readdirSync(KERNEL_FIXTURES).map((name) => {
  const id = `contract-${name.replace(/\.json$/, '')}`;
  const run = JSON.parse(readFileSync(join(KERNEL_FIXTURES, name), 'utf8')) as object;
  writeFileSync(join(kernelsDir, `${id}.json`), JSON.stringify({ ...run, id }));
  return id;
});
const [kernelRunId = '', kernelRunToDelete = ''] = kernelRunIds;
const [recordedRunId = '', recordedRunToDelete = ''] = data.runIds;

const labHost = createLabHost({ dataDir: data.dataDir, supervisor: { testHooks: true, log: () => undefined }, warn: () => undefined });
const staticDir = mkdtempSync(join(tmpdir(), 'gpu-lab-contract-web-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GPU Lab</title>');
let server: RunningServer;
let client: ApiClient;
let listener: ApiClient;
const heard: { event: ApiEvent; payload: unknown }[] = [];
// Runs made by this version here: one completed, one failed when its compute host died.
let completedRunId = '';
let failedRunId = '';

async function answer(method: ApiMethod, args: unknown[]): Promise<Record<string, unknown>> {
  return call(client, method, args);
}

// A run started over the wire, once its first point is being measured.
async function runningRun(onProgress?: () => void): Promise<string> {
  let sawProgress: () => void = () => undefined;
  const progressed = new Promise<void>((resolve) => (sawProgress = resolve));
  const sub = labHost.runs.onDidChangeRun((e: RunEvent) => {
    if (e.kind !== 'progress') return;
    sub.dispose();
    onProgress?.();
    sawProgress();
  });
  const started = await answer('runs.startRun', [LONG]);
  await progressed;
  return (started.value as { runId: string }).runId;
}

beforeAll(async () => {
  server = await startServer({ api: labHost, staticDir, port: 0, token: TOKEN });
  client = await openApiSocket(server.port, TOKEN);
  listener = await openApiSocket(server.port, TOKEN);
  void (async () => {
    for (let frame = await listener.next(); frame !== null; frame = await listener.next()) {
      if ('event' in frame) heard.push(frame as { event: ApiEvent; payload: unknown });
    }
  })();
  completedRunId = ((await answer('runs.startRun', [QUICK])).value as { runId: string }).runId;
  await labHost.runs.whenIdle();
  failedRunId = await runningRun(() => void labHost.supervisor.crashForTest('abort'));
  await labHost.runs.whenIdle();
}, 60_000);

afterAll(async () => {
  client.ws.close();
  listener.ws.close();
  await labHost.runs.whenIdle();
  await server.close();
  await labHost.dispose();
});

// An upload of one record (a recorded run under an id of its own), begun and, as far as `upTo` says, sent.
async function upload(upTo: 'begun' | 'sent'): Promise<string> {
  const body = Buffer.from(JSON.stringify({ ...(JSON.parse(readFileSync(join(data.dataDir, 'runs', `${recordedRunId}.json`), 'utf8')) as object), id: `uploaded-${Date.now()}` }));
  const begun = (await answer('imports.begin', [[{ name: 'uploaded.json', bytes: body.length }]])).value as { importId: string };
  if (upTo === 'sent') await answer('imports.sendPart', [begun.importId, { file: 0, offset: 0, base64: body.toString('base64') }]);
  return begun.importId;
}

// The argument lists each method is called with here, all valid; the answers of every call are checked. A function
// where the arguments are made as the test goes (a run started, or made before).
type Calls = unknown[][] | (() => Promise<unknown[][]>);
const CALLS: Record<ApiMethod, Calls> = {
  'devices.listDevices': [[]],
  'devices.inspectDevices': [[]],
  'devices.readTelemetry': [['cuda:0']],
  'devices.inspectPython': [[]],
  'labs.listLabs': [[], ['es']],
  'labs.kernelSource': [['shaders/cuda/vector_function.cu']],
  'labs.validateParams': [['matmul', { n: 500 }], ['matmul-breakeven', { sizes: [100, 200] }], ['dtypes', {}]],
  'labs.referenceResults': [['matmul'], ['transfer'], ['dtypes']],
  'labs.timeBounds': [['cpu']],
  'runs.startRun': [[QUICK]],
  'runs.cancelRun': async () => [[await runningRun()], [completedRunId]],
  'runs.listRuns': [[]],
  'runs.getRun': async () => [[completedRunId], [failedRunId], [recordedRunId]],
  'runs.getRunProgress': async () => {
    const running = await runningRun();
    const progress = await answer('runs.getRunProgress', [running]);
    expect(issues(methodSpec('runs.getRunProgress').result, progress.value)).toEqual([]);
    expect(progress.value, 'the progress of a run in progress').not.toBeNull();
    await labHost.runs.cancelRun(running);
    return [[completedRunId]];
  },
  'runs.deleteRun': [[recordedRunToDelete]],
  'runs.exportRun': async () => [[completedRunId, 'json'], [completedRunId, 'csv'], [completedRunId, 'csv-samples']],
  'imports.begin': async () => [[[{ name: 'runs.tar.gz', bytes: 0 }]], [[{ name: 'a.json', bytes: 10 }, { name: 'b.zip', bytes: 20 }]]],
  'imports.sendPart': async () => [[await upload('begun'), { file: 0, offset: 0, base64: Buffer.from('{"id":').toString('base64') }]],
  'imports.finish': async () => [[await upload('sent')]],
  'imports.cancel': async () => [[await upload('begun')]],
  'reports.writeReport': async () => [[{ runIds: [completedRunId], kernelRunIds: [kernelRunId], author: 'Ana', course: 'HPC', locale: 'es' }]],
  'reports.labsReportContents': [['cpu'], ['cuda:0']],
  'reports.writeLabsReport': [[{ device: 'cpu', author: 'Ana' }]],
  'reports.compareDevices': [['matmul'], ['transfer'], ['vector-function']],
  'reports.writeDevicesReport': [[{ labs: ['matmul', 'dtypes'], author: 'Ana', locale: 'es' }]],
  'playground.listExercises': [[], ['es']],
  'playground.status': [[]],
  'playground.runKernel': [[{ exercise: 'saxpy', source: SAXPY, size: 1024, compare: false }]],
  'playground.listKernelRuns': [[], ['saxpy']],
  'playground.getKernelRun': kernelRunIds.map((id) => [id]),
  'playground.deleteKernelRun': [[kernelRunToDelete]],
  'playground.loadDraft': [['saxpy'], ['sgemm']],
  'playground.saveDraft': [['sgemm', SAXPY]],
  // Without a class (tests/unit/classroom/ call them on a class's server).
  'classroom.session': [[]],
  'classroom.queue': [[]],
  'classroom.leaveQueue': [['q-000000000000']],
  'classroom.classDistribution': async () => [[completedRunId]],
  'classroom.listStudents': [[]],
  'classroom.removeStudent': [['s-000000000000']],
  'classroom.setCaps': [[{ maxPoints: 10, maxBytes: 1024, maxSeconds: 10 }]],
  'classroom.classOverview': [[]],
  'classroom.classCsv': [[]],
  'classroom.writeClassReport': [[{ locale: 'es' }]],
};

// What a server without a class answers its class's methods: that there is no class.
const WITHOUT_A_CLASS: Partial<Record<ApiMethod, ErrorCode>> = {
  'classroom.leaveQueue': 'NOT_FOUND',
  'classroom.classDistribution': 'NOT_FOUND',
  'classroom.removeStudent': 'NOT_FOUND',
  'classroom.setCaps': 'NOT_FOUND',
  'classroom.classOverview': 'NOT_FOUND',
  'classroom.classCsv': 'NOT_FOUND',
  'classroom.writeClassReport': 'NOT_FOUND',
};

// What the methods that need a GPU answer on a machine without one (this one): the error that says so. Their result
// schemas are still held to the recorded answers of a GPU machine (the kernel runs of getKernelRun).
const WITHOUT_A_GPU: Partial<Record<ApiMethod, ErrorCode>> = {
  'devices.readTelemetry': 'INVALID_ARGUMENT',
  'playground.runKernel': 'CUDA_UNAVAILABLE',
};

function issues(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
}

describe('every method of the contract, over serve mode on a real lab host', () => {
  it.each(API_METHODS)('%s answers exactly what its result schema declares', async (method) => {
    const hasGpu = ((await labHost.devices.listDevices()).devices.some((d) => d.kind === 'cuda'));
    const calls = CALLS[method];
    for (const args of typeof calls === 'function' ? await calls() : calls) {
      const frame = await answer(method, args);
      const noClass = WITHOUT_A_CLASS[method];
      if (noClass) {
        expect(frame, `${method}(${JSON.stringify(args)})`).toMatchObject({ ok: false, error: { code: noClass } });
        continue;
      }
      const without = WITHOUT_A_GPU[method];
      if (!hasGpu && without) {
        expect(frame, `${method}(${JSON.stringify(args)})`).toMatchObject({ ok: false, error: { code: without } });
        continue;
      }
      expect(frame.error, `${method}(${JSON.stringify(args)})`).toBeUndefined();
      expect(issues(methodSpec(method).result, frame.value), `${method}(${JSON.stringify(args)})`).toEqual([]);
    }
    await labHost.runs.whenIdle();
  }, 60_000);

  it('leaves no object of a result or an event schema open to fields it does not declare', () => {
    const open = [...API_METHODS.map((m) => notStrictObjects(methodSpec(m).result, m)), ...API_EVENTS.map((e) => notStrictObjects(eventSpec(e).payload, e))].flat();
    expect(open).toEqual([]);
  });

  it('sends only events whose payload its schema declares, of every kind', async () => {
    await labHost.runs.whenIdle();
    for (const { event, payload } of heard) expect(issues(eventSpec(event).payload, payload), `${event} ${JSON.stringify(payload).slice(0, 200)}`).toEqual([]);
    const kinds = new Set(heard.map((h) => (h.payload as RunEvent).kind));
    expect([...kinds].sort()).toEqual(RUN_EVENT.options.map((o) => o.shape.kind.value).sort());
    expect(heard.map((h) => h.event).every((e) => API_EVENTS.includes(e))).toBe(true);
  });
});

describe('the door', () => {
  // Nothing an argument of the contract takes: not an object of name → value (a boolean inside), not a string.
  const WRONG = [{ wrong: true }, null, 42];

  it.each(API_METHODS)('%s refuses each of its arguments when wrong, naming the method, the argument and what is expected', async (method) => {
    // The arguments before the wrong one must pass: a valid one where the table above has it, else one of the form
    // its name asks for (an upload's id), else a run id.
    const calls = CALLS[method];
    const valid = typeof calls === 'function' ? [] : (calls[0] ?? []);
    const spec = methodSpec(method);
    const formed: Record<string, unknown> = { importId: 'u-0000000000000000' };
    for (const [i, { name, expected }] of spec.args.entries()) {
      for (const wrong of WRONG) {
        const args = spec.args.map((a, j) => (j === i ? wrong : (valid[j] ?? formed[a.name] ?? 'a-run-id')));
        const frame = await answer(method, args);
        expect(frame, `${method} ${name} = ${JSON.stringify(wrong)}`).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { method, argument: name, expected } } });
        expect((frame.error as { message: string }).message).toContain(`Argument "${name}" of ${method} = `);
      }
    }
    const tooMany = await answer(method, [...spec.args.map(() => undefined), 'one more']);
    expect(tooMany, `${method} with one argument more`).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { method } } });
  });
});
