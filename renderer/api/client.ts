// The contract (GpuLabApi) over any transport: a function per method, answers unwrapped into values or ApiErrors,
// events (onDidX) as subscriptions. No method is listed here: api.runs.getRun is the wire name "runs.getRun", made
// when it is first read. GpuLabApi, derived from the contract's table, lets the code name only the table's
// members, and a name main does not know would be answered UNKNOWN_METHOD; the table itself (its schemas, and zod)
// stays out of the renderer's bundle.
import type { ApiEvent, ApiMethod, GpuLabApi } from '../../main/common/contract/index.ts';
import type { ApiResponse } from '../../main/common/contract/wire.ts';
import { ApiError } from './api-error.ts';
import type { Transport } from './transport.ts';

function unwrap(response: ApiResponse): unknown {
  if (response.ok) return response.value;
  throw new ApiError(response.error);
}

// Arguments left out are not sent as undefined (JSON would write null, which no optional argument takes): without
// a locale, listLabs sends no argument at all, which older hosts and English alike read as English.
function sent(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  return args.slice(0, end);
}

// The contract's members are named in camelCase. Other names a caller may read are not members: `await` looks for
// `then`, JSON for `toJSON`, Vue for `__v_isRef`, and Object's own methods are not the contract's.
function isMemberName(name: string | symbol): name is string {
  return typeof name === 'string' && /^[a-z][A-Za-z0-9]*$/.test(name) && name !== 'then' && name !== 'toJSON' && !(name in Object.prototype);
}

// One object per service, whose members are made on first read and kept, so a member is the same function each time.
function lazyObject(make: (name: string) => unknown): object {
  const made = new Map<string, unknown>();
  return new Proxy(Object.create(null) as object, {
    get(_target, name) {
      if (!isMemberName(name)) return undefined;
      if (!made.has(name)) made.set(name, make(name));
      return made.get(name);
    },
  });
}

export function createApiClient(transport: Transport): GpuLabApi {
  const member = (service: string, name: string): unknown => {
    const wireName = `${service}.${name}`;
    if (name.startsWith('onDid')) {
      return (listener: (payload: unknown) => void) => ({ dispose: transport.on(wireName as ApiEvent, listener) });
    }
    return (...args: unknown[]) => transport.call(wireName as ApiMethod, sent(args)).then(unwrap);
  };
  return lazyObject((service) => lazyObject((name) => member(service, name))) as GpuLabApi;
}
