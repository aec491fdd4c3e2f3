// The API client over a fake transport: each contract method goes out under its wire name with its arguments, an
// answer comes back as the value, an error as an ApiError carrying the code, and events reach their subscribers. The
// client lists no method: these tests hold it to the contract's table.
import { describe, expect, it } from 'vitest';

import type { ApiEvent, ApiMethod } from '../../../../main/common/contract/index.ts';
import type { ApiResponse } from '../../../../main/common/contract/wire.ts';
import { API_EVENTS, API_METHODS, CONTRACT } from '../../../../main/common/contract/index.ts';
import type { RunEvent } from '../../../../main/common/contract/runs.ts';
import { ApiError } from '../../../../renderer/api/api-error.ts';
import { createApiClient } from '../../../../renderer/api/client.ts';
import type { Transport } from '../../../../renderer/api/transport.ts';

function fakeTransport(answer: (method: ApiMethod, args: unknown[]) => ApiResponse) {
  const calls: { method: ApiMethod; args: unknown[] }[] = [];
  const listeners = new Map<ApiEvent, Set<(p: unknown) => void>>();
  const transport: Transport = {
    call: async (method, args) => {
      calls.push({ method, args });
      return answer(method, args);
    },
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    state: 'open',
    onState: () => () => undefined,
  };
  const emit = (event: ApiEvent, payload: unknown): void => listeners.get(event)?.forEach((l) => l(payload));
  return { transport, calls, emit };
}

describe('API client', () => {
  it('sends every contract method under its wire name with the arguments given', async () => {
    const { transport, calls } = fakeTransport(() => ({ ok: true, value: null }));
    const api = createApiClient(transport);
    await api.devices.listDevices();
    await api.devices.inspectDevices();
    await api.devices.readTelemetry('cuda:0');
    await api.devices.inspectPython();
    await api.labs.listLabs();
    await api.labs.kernelSource('shaders/cuda/elementwise.cu');
    await api.labs.validateParams('matmul', { n: 500 });
    await api.labs.timeBounds('cuda:0');
    await api.runs.startRun({ lab: 'matmul', device: 'cpu', params: { n: 500 } });
    await api.runs.cancelRun('r1');
    await api.runs.listRuns();
    await api.runs.getRun('r1');
    await api.runs.getRunProgress('r1');
    await api.runs.deleteRun('r1');
    await api.runs.exportRun('r1', 'csv');
    await api.reports.writeReport({ runIds: ['r1'] });
    await api.reports.labsReportContents('cuda:0');
    await api.reports.writeLabsReport({ device: 'cpu', author: 'Ana' });
    await api.playground.listExercises('es');
    await api.playground.status();
    await api.playground.runKernel({ exercise: 'saxpy', source: '__global__ void saxpy() {}' });
    await api.playground.listKernelRuns('saxpy');
    await api.playground.getKernelRun('k1');
    await api.playground.deleteKernelRun('k1');
    await api.playground.loadDraft('saxpy');
    await api.playground.saveDraft('saxpy', 'x');
    await api.classroom.session();
    await api.classroom.queue();
    await api.classroom.leaveQueue('q-000000000000');
    await api.classroom.classDistribution('r1');
    await api.classroom.listStudents();
    await api.classroom.removeStudent('s-000000000000');
    await api.classroom.setCaps({ maxPoints: 10, maxBytes: 1024, maxSeconds: 10 });
    await api.classroom.classOverview();
    await api.classroom.classCsv();
    await api.classroom.writeClassReport({ locale: 'es' });
    await api.labs.referenceResults('matmul');
    await api.reports.compareDevices('matmul');
    await api.reports.writeDevicesReport({ labs: ['matmul'] });
    await api.imports.begin([{ name: 'runs.tar.gz', bytes: 10 }]);
    await api.imports.sendPart('i1', { file: 0, offset: 0, base64: 'AAAA' });
    await api.imports.finish('i1');
    await api.imports.cancel('i1');
    expect(calls.map((c) => c.method).sort()).toEqual([...API_METHODS].sort());
    expect(calls.find((c) => c.method === 'runs.startRun')?.args).toEqual([{ lab: 'matmul', device: 'cpu', params: { n: 500 } }]);
    expect(calls.find((c) => c.method === 'runs.exportRun')?.args).toEqual(['r1', 'csv']);
    expect(calls.find((c) => c.method === 'reports.writeLabsReport')?.args).toEqual([{ device: 'cpu', author: 'Ana' }]);
    expect(calls.find((c) => c.method === 'imports.sendPart')?.args).toEqual(['i1', { file: 0, offset: 0, base64: 'AAAA' }]);
  });

  it('returns the value of an answer and throws an ApiError with the code of an error', async () => {
    const { transport } = fakeTransport((method) =>
      method === 'runs.getRun'
        ? { ok: false, error: { code: 'NOT_FOUND', message: 'No readable run "x"', details: { runId: 'x' } } }
        : { ok: true, value: [{ id: 'transfer' }] },
    );
    const api = createApiClient(transport);
    expect(await api.labs.listLabs()).toEqual([{ id: 'transfer' }]);
    const err = await api.runs.getRun('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('NOT_FOUND');
    expect((err as ApiError).message).toBe('No readable run "x"');
    expect((err as ApiError).details).toEqual({ runId: 'x' });
  });

  it('delivers run events to subscribers until they dispose', () => {
    const { transport, emit } = fakeTransport(() => ({ ok: true, value: null }));
    const api = createApiClient(transport);
    const seen: RunEvent[] = [];
    const sub = api.runs.onDidChangeRun((e) => seen.push(e));
    const progress: RunEvent = { kind: 'progress', runId: 'r1', progress: { pointsDone: 1, pointsTotal: 4, fraction: 0.25, etaSeconds: 3, current: { key: 'add CPU' } } };
    emit('runs.onDidChangeRun', progress);
    sub.dispose();
    emit('runs.onDidChangeRun', progress);
    expect(seen).toEqual([progress]);
  });

  it('makes every member of the contract’s table, named as the client expects: methods in camelCase, events onDidX', async () => {
    const { transport, calls, emit } = fakeTransport(() => ({ ok: true, value: 'answer' }));
    const api = createApiClient(transport) as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>;
    expect(Object.keys(CONTRACT).every((service) => /^[a-z][A-Za-z0-9]*$/.test(service))).toBe(true);
    for (const method of API_METHODS) {
      const [service = '', name = ''] = method.split('.');
      expect(name, method).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(name.startsWith('onDid'), method).toBe(false);
      expect(await api[service]?.[name]?.('argument'), method).toBe('answer');
    }
    expect(calls).toEqual(API_METHODS.map((method) => ({ method, args: ['argument'] })));
    for (const event of API_EVENTS) {
      const [service = '', name = ''] = event.split('.');
      expect(name, event).toMatch(/^onDid[A-Z][A-Za-z0-9]*$/);
      const seen: unknown[] = [];
      const sub = api[service]?.[name]?.((payload: unknown) => seen.push(payload)) as { dispose(): void };
      emit(event, 'payload');
      sub.dispose();
      emit(event, 'payload');
      expect(seen, event).toEqual(['payload']);
    }
  });

  it('sends no argument that was left out, keeps each member as one function, and has no members a caller may probe for', async () => {
    const { transport, calls } = fakeTransport(() => ({ ok: true, value: null }));
    const api = createApiClient(transport);
    await api.labs.listLabs(undefined);
    await api.playground.listKernelRuns();
    expect(calls.map((c) => c.args)).toEqual([[], []]);
    expect(api.runs.getRun).toBe(api.runs.getRun);
    const service = api.runs as unknown as Record<string, unknown>;
    // `await api.runs` must not call main, nor Vue take a service for a ref, nor JSON look for a method.
    expect([service.then, service.toJSON, service.__v_isRef, service.constructor, service.hasOwnProperty]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(await Promise.resolve(api.runs)).toBe(api.runs);
  });
});
