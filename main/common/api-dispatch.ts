// The one door into the contract from a wire (IPC or WebSocket): the method is looked up in the contract's list,
// its arguments are checked against their schemas (a rejection names the argument, the value and what is
// expected), the service is called, and whatever happens comes back as an ApiResponse. Errors keep their code and
// message; anything that is not a GpuLabError is reported without its stack or internals.
import { z } from 'zod';

import { API_METHODS } from './api-methods.ts';
import type { ApiMethod, ApiResponse } from './api-methods.ts';
import type { GpuLabApi } from './contract.ts';
import { GpuLabError } from './errors.ts';
import { LOCALES } from './locale.ts';
import { DEVICE_ID } from './measurement.ts';
import { EXERCISE_IDS, MAX_SOURCE_CHARS } from './playground.ts';
import type { ErrorPayload } from './errors.ts';
import { describeValue } from './params.ts';

export const RUN_ID = z.string().regex(/^[A-Za-z0-9._-]{1,120}$/, 'a run id (1 to 120 letters, digits, . _ -)');
const CUDA_DEVICE = z.string().regex(/^cuda:\d{1,2}$/, 'a CUDA device id ("cuda:N")');
const FILE = z.string().min(1).max(200);

type ArgSpec = readonly (readonly [name: string, schema: z.ZodType<unknown>, expected: string])[];

const ARGS: Record<ApiMethod, ArgSpec> = {
  'devices.listDevices': [],
  'devices.inspectDevices': [],
  'devices.readTelemetry': [['device', CUDA_DEVICE, 'a CUDA device id such as "cuda:0"']],
  // The language of the descriptors' words and findings' templates; English without.
  'labs.listLabs': [['locale', z.enum(LOCALES).optional(), 'a language: en or es']],
  'labs.kernelSource': [['file', FILE, 'the path of a kernel source a lab names']],
  // The lab's own schema checks the values and names the parameter at fault.
  'labs.validateParams': [
    ['lab', z.string().min(1).max(64), 'a lab id'],
    ['params', z.record(z.string(), z.unknown()), 'an object of parameter name → value'],
  ],
  // The run request is validated by the runner, whose errors name the lab's own parameters.
  'runs.startRun': [['request', z.unknown(), 'a run request']],
  'runs.cancelRun': [['runId', RUN_ID, 'a run id']],
  'runs.listRuns': [],
  'runs.getRun': [['runId', RUN_ID, 'a run id']],
  'runs.getRunProgress': [['runId', RUN_ID, 'a run id']],
  'runs.deleteRun': [['runId', RUN_ID, 'a run id']],
  'runs.exportRun': [
    ['runId', RUN_ID, 'a run id'],
    ['format', z.enum(['json', 'csv', 'csv-samples']), 'json, csv or csv-samples'],
  ],
  // The shape only: the report's own checks name the field at fault and say why (too long, a control character).
  'reports.writeReport': [
    [
      'request',
      z
        .strictObject({
          runIds: z.array(RUN_ID).max(2),
          kernelRunIds: z.array(RUN_ID).max(20).optional(),
          author: z.string().optional(),
          course: z.string().optional(),
          locale: z.enum(LOCALES).optional(),
        })
        .refine((r) => r.runIds.length + (r.kernelRunIds?.length ?? 0) > 0, 'no run and no kernel run'),
      'a report request {runIds: one run id, or two to compare; kernelRunIds?: up to 20 kernel runs; author?; course?; locale?: en or es}',
    ],
  ],
  'reports.labsReportContents': [['device', DEVICE_ID, 'a device id: "cpu" or "cuda:N"']],
  'reports.writeLabsReport': [
    [
      'request',
      z.strictObject({ device: DEVICE_ID, author: z.string().optional(), course: z.string().optional(), locale: z.enum(LOCALES).optional() }),
      'a labs report request {device: "cpu" or "cuda:N"; author?; course?; locale?: en or es}',
    ],
  ],
  'playground.listExercises': [['locale', z.enum(LOCALES).optional(), 'a language: en or es']],
  'playground.status': [],
  // The request is validated by the playground, whose errors name the field at fault.
  'playground.runKernel': [['request', z.unknown(), 'a kernel run request']],
  'playground.listKernelRuns': [['exercise', z.enum(EXERCISE_IDS).optional(), `an exercise: ${EXERCISE_IDS.join(', ')}`]],
  'playground.getKernelRun': [['id', RUN_ID, 'a kernel run id']],
  'playground.deleteKernelRun': [['id', RUN_ID, 'a kernel run id']],
  'playground.loadDraft': [['exercise', z.enum(EXERCISE_IDS), `an exercise: ${EXERCISE_IDS.join(', ')}`]],
  'playground.saveDraft': [
    ['exercise', z.enum(EXERCISE_IDS), `an exercise: ${EXERCISE_IDS.join(', ')}`],
    ['source', z.string().max(MAX_SOURCE_CHARS), `a kernel source of at most ${MAX_SOURCE_CHARS} characters`],
  ],
};

export function isApiMethod(method: unknown): method is ApiMethod {
  return typeof method === 'string' && (API_METHODS as readonly string[]).includes(method);
}

// The arguments of a call, checked; or INVALID_ARGUMENT naming the first one at fault.
export function checkArgs(method: ApiMethod, args: unknown): unknown[] {
  const spec = ARGS[method];
  if (!Array.isArray(args)) {
    throw new GpuLabError('INVALID_ARGUMENT', `The arguments of ${method} must be a list, not ${describeValue(args)}`, { method });
  }
  if (args.length > spec.length) {
    throw new GpuLabError('INVALID_ARGUMENT', `${method} takes ${spec.length} argument(s) (${spec.map((s) => s[0]).join(', ') || 'none'}), not ${args.length}`, { method });
  }
  return spec.map(([name, schema, expected], i) => {
    const parsed = schema.safeParse(args[i]);
    if (!parsed.success) {
      throw new GpuLabError('INVALID_ARGUMENT', `Argument "${name}" of ${method} = ${describeValue(args[i])} is not allowed: expected ${expected}`, {
        method,
        argument: name,
        value: describeValue(args[i]),
        expected,
      });
    }
    return parsed.data;
  });
}

// A thrown value as it may cross to a client: a GpuLabError as it is; anything else (a bug, a Node error) as
// NATIVE_ERROR with its message only, without a stack or paths of this machine beyond what the message says.
export function errorResponse(err: unknown): { ok: false; error: ErrorPayload } {
  if (err instanceof GpuLabError) return { ok: false, error: err.toPayload() };
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { code: 'NATIVE_ERROR', message: `Internal error: ${message.slice(0, 500)}` } };
}

type Callable = (...args: unknown[]) => Promise<unknown>;

export async function dispatch(api: GpuLabApi, method: unknown, args: unknown): Promise<ApiResponse> {
  try {
    if (!isApiMethod(method)) {
      throw new GpuLabError('UNKNOWN_METHOD', `There is no method ${describeValue(method)}; the methods are ${API_METHODS.join(', ')}`, {
        method: describeValue(method),
      });
    }
    const checked = checkArgs(method, args);
    const [service, name] = method.split('.') as [keyof GpuLabApi, string];
    const target = api[service] as unknown as Record<string, Callable>;
    const fn = target[name];
    if (typeof fn !== 'function') throw new GpuLabError('UNKNOWN_METHOD', `${method} is not implemented by this shell`, { method });
    return { ok: true, value: await fn.apply(target, checked) };
  } catch (err) {
    return errorResponse(err);
  }
}
