// Main as the renderer's stores meet it, faked at the transport: the real API client (renderer/api/client.ts) over a
// transport whose answers a test sets per method and whose events and link state a test drives.
import { vi } from 'vitest';

import type { ApiEvent, ApiMethod } from '../../../../main/common/contract/index.ts';
import type { ApiResponse } from '../../../../main/common/contract/wire.ts';
import type { RunEvent } from '../../../../main/common/contract/runs.ts';
import { ApiError, errorText } from '../../../../renderer/api/api-error.ts';
import { createApiClient } from '../../../../renderer/api/client.ts';
import type { ConnectionState, Transport } from '../../../../renderer/api/transport.ts';

type Answer = (args: unknown[]) => unknown;

export function fakeMain() {
  const answers = new Map<ApiMethod, Answer>();
  const calls: { method: ApiMethod; args: unknown[] }[] = [];
  const listeners = new Map<ApiEvent, Set<(p: unknown) => void>>();
  const stateListeners = new Set<(s: ConnectionState) => void>();
  let state: ConnectionState = 'open';
  const transport: Transport = {
    call: vi.fn(async (method: ApiMethod, args: unknown[]): Promise<ApiResponse> => {
      calls.push({ method, args });
      const answer = answers.get(method);
      if (!answer) return { ok: false, error: { code: 'UNKNOWN_METHOD', message: `no answer set for ${method}` } };
      try {
        return { ok: true, value: await answer(args) };
      } catch (err) {
        return err instanceof ApiError ? { ok: false, error: { code: err.code, message: err.message, details: err.details } } : { ok: false, error: { code: 'NATIVE_ERROR', message: String(err) } };
      }
    }),
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    get state() {
      return state;
    },
    onState: (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
  };
  return {
    transport,
    api: createApiClient(transport),
    calls,
    answer: (method: ApiMethod, fn: Answer) => answers.set(method, fn),
    emit: (event: RunEvent) => listeners.get('runs.onDidChangeRun')?.forEach((l) => l(event)),
    setState: (next: ConnectionState) => {
      state = next;
      stateListeners.forEach((l) => l(next));
    },
    module: () => ({ api: createApiClient(transport), transport, desktop: null, ApiError, errorText }),
  };
}
