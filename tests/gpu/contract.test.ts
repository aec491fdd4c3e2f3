// The contract's answers that only a machine with a GPU gives: a telemetry reading, the device report of a CUDA
// device, a kernel run (verified, and one that does not compile) and a lab run on the GPU with its events, each
// called through the door (dispatch) on a real lab host and parsed with its schema from the contract's table. The
// unit contract test (tests/unit/contract/) calls every method on a machine without a GPU, where these answer the
// error that says so.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { createLabHost } from '../../main/app/lab-host.ts';
import type { LabHost } from '../../main/app/lab-host.ts';
import { dispatch, subscribeEvents } from '../../main/common/api-dispatch.ts';
import { eventSpec, methodSpec } from '../../main/common/contract/index.ts';
import type { ApiEvent, ApiMethod } from '../../main/common/contract/index.ts';
import type { Disposable } from '../../main/common/contract/spec.ts';
import { DEVICE, skipWithoutGpu } from './helpers.ts';

const root = join(import.meta.dirname, '..', '..');
const SAXPY = readFileSync(join(root, 'shaders/playground/saxpy.starter.cu'), 'utf8');

let host: LabHost;
let subscription: Disposable;
const heard: { event: ApiEvent; payload: unknown }[] = [];

function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues ?? []).map((i) => `${i.path.map(String).join('.') || '(top)'}: ${i.message}`);
}

async function answered(method: ApiMethod, args: unknown[]): Promise<unknown> {
  const response = await dispatch(host, method, args);
  assert.ok(response.ok, `${method}: ${JSON.stringify(response)}`);
  assert.deepEqual(issues(methodSpec(method).result.safeParse(response.value)), [], method);
  return response.value;
}

describe('the contract on a GPU', { skip: skipWithoutGpu }, () => {
  before(() => {
    host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-contract-')), supervisor: { log: () => undefined }, warn: () => undefined });
    subscription = subscribeEvents(host, (event, payload) => heard.push({ event, payload }));
  });
  after(async () => {
    subscription.dispose();
    await host.runs.whenIdle();
    await host.dispose();
  });

  it('answers the devices, a telemetry reading and the playground status as declared', async () => {
    for (const method of ['devices.listDevices', 'devices.inspectDevices', 'playground.status'] as const) await answered(method, []);
    await answered('devices.readTelemetry', [DEVICE]);
  });

  it('answers kernel runs as declared, compiled or not, and reads them back the same', async () => {
    for (const source of [SAXPY, `${SAXPY}\nthis does not compile;\n`]) {
      const run = (await answered('playground.runKernel', [{ exercise: 'saxpy', source, size: 1 << 20 }])) as { id: string };
      await answered('playground.getKernelRun', [run.id]);
    }
    await answered('playground.listKernelRuns', []);
  });

  it('runs a lab on the GPU: the record and every event as declared', async () => {
    const { runId } = (await answered('runs.startRun', [{ lab: 'vector-function', device: DEVICE, params: { elements: 100_000, repeats: 3 } }])) as { runId: string };
    await host.runs.whenIdle();
    const record = (await answered('runs.getRun', [runId])) as { status: string };
    assert.equal(record.status, 'completed');
    for (const { event, payload } of heard) assert.deepEqual(issues(eventSpec(event).payload.safeParse(payload)), [], `${event} ${JSON.stringify(payload).slice(0, 200)}`);
    assert.ok(heard.some((h) => (h.payload as { kind?: string }).kind === 'point'));
  });
});
