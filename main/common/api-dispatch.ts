// The one door into the contract from a wire (IPC or WebSocket): the method is looked up in the contract's table,
// its arguments are checked against their schemas (a refusal names the argument, the value, the field at fault
// inside a request, and what is expected), the service is called, and whatever happens comes back as an
// ApiResponse. Errors keep their code and message; anything that is not a GpuLabError is reported without its stack
// or internals. Events are subscribed to here too, every event of the table.
import type { z } from 'zod';

import { API_EVENTS, API_METHODS, isApiMethod, methodSpec } from './contract/index.ts';
import type { ApiEvent, ApiMethod, GpuLabApi } from './contract/index.ts';
import type { Disposable } from './contract/spec.ts';
import type { ApiResponse } from './contract/wire.ts';
import { GpuLabError } from './errors.ts';
import type { ErrorPayload } from './errors.ts';
import { describeValue } from './params.ts';

// The value at `path` inside an argument, for the refusal to quote.
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || typeof key === 'symbol' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

// Where inside an argument the first issue lies ("block.0", "params.n", or the unknown key of a strict object), and
// what the schema says of it; nothing for an argument that is a plain value.
function fieldAtFault(value: unknown, issue: z.core.$ZodIssue | undefined): { field: string; problem: string } | null {
  if (!issue || typeof value !== 'object' || value === null) return null;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  if (path.length === 0) return { field: '', problem: issue.message };
  const field = path.map(String).join('.');
  const problem = issue.code === 'unrecognized_keys' ? 'is not a field of it' : `= ${describeValue(valueAt(value, path))}: ${issue.message}`;
  return { field, problem };
}

// The arguments of a call, checked; or INVALID_ARGUMENT naming the first one at fault.
export function checkArgs(method: ApiMethod, args: unknown): unknown[] {
  const spec = methodSpec(method).args;
  if (!Array.isArray(args)) {
    throw new GpuLabError('INVALID_ARGUMENT', `The arguments of ${method} must be a list, not ${describeValue(args)}`, { method });
  }
  if (args.length > spec.length) {
    throw new GpuLabError('INVALID_ARGUMENT', `${method} takes ${spec.length} argument(s) (${spec.map((s) => s.name).join(', ') || 'none'}), not ${args.length}`, { method });
  }
  return spec.map(({ name, schema, expected }, i) => {
    const parsed = schema.safeParse(args[i]);
    if (parsed.success) return parsed.data;
    const fault = fieldAtFault(args[i], parsed.error.issues[0]);
    const inside = fault === null ? '' : fault.field ? `; \`${fault.field}\` ${fault.problem}` : `; ${fault.problem}`;
    throw new GpuLabError('INVALID_ARGUMENT', `Argument "${name}" of ${method} = ${describeValue(args[i])} is not allowed: expected ${expected}${inside}`, {
      method,
      argument: name,
      value: describeValue(args[i]),
      expected,
      ...(fault?.field ? { field: fault.field } : {}),
    });
  });
}

// A thrown value as it may cross to a client: a GpuLabError as it is; anything else (a bug, a Node error) as
// NATIVE_ERROR with its message only, without a stack or paths of this machine beyond what the message says.
export function errorResponse(err: unknown): { ok: false; error: ErrorPayload } {
  if (err instanceof GpuLabError) return { ok: false, error: err.toPayload() };
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { code: 'NATIVE_ERROR', message: `Internal error: ${message.slice(0, 500)}` } };
}

type Member = (...args: unknown[]) => unknown;

function member(api: GpuLabApi, name: ApiMethod | ApiEvent): { target: Record<string, Member>; fn: Member | undefined } {
  const [service, key] = name.split('.') as [keyof GpuLabApi, string];
  const target = api[service] as unknown as Record<string, Member>;
  return { target, fn: typeof target[key] === 'function' ? target[key] : undefined };
}

export async function dispatch(api: GpuLabApi, method: unknown, args: unknown): Promise<ApiResponse> {
  try {
    if (!isApiMethod(method)) {
      throw new GpuLabError('UNKNOWN_METHOD', `There is no method ${describeValue(method)}; the methods are ${API_METHODS.join(', ')}`, {
        method: describeValue(method),
      });
    }
    const checked = checkArgs(method, args);
    const { target, fn } = member(api, method);
    if (!fn) throw new GpuLabError('UNKNOWN_METHOD', `${method} is not implemented by this shell`, { method });
    return { ok: true, value: await fn.apply(target, checked) };
  } catch (err) {
    return errorResponse(err);
  }
}

// Every event of the contract, to one listener (a shell forwards them to its window or its socket); the answer
// ends all the subscriptions.
export function subscribeEvents(api: GpuLabApi, listener: (event: ApiEvent, payload: unknown) => void): Disposable {
  const subscriptions = API_EVENTS.map((event) => {
    const { target, fn } = member(api, event);
    if (!fn) throw new Error(`The API does not implement the event ${event}`);
    return fn.call(target, (payload: unknown) => listener(event, payload)) as Disposable;
  });
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
