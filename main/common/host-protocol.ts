// Messages between the supervisor (main) and the compute host (the child that loads the addon). Both sides
// validate what they receive: a malformed message is a bug on the other side, reported, never acted upon.
import { z } from 'zod';

import { PEER_LIBRARIES } from './peer-protocol.ts';

import { ERROR_CODES } from './errors.ts';

const REQUEST_ID = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

export const TO_HOST = z.discriminatedUnion('type', [
  // The measurement itself is validated separately, so that its rejection names the field at fault.
  z.strictObject({ type: z.literal('measure'), id: REQUEST_ID, measurement: z.unknown() }),
  z.strictObject({ type: z.literal('cancel'), id: REQUEST_ID }),
  z.strictObject({ type: z.literal('ping'), id: REQUEST_ID }),
  z.strictObject({ type: z.literal('environment'), id: REQUEST_ID }),
  // The device inspector: the whole device report, or one telemetry reading.
  z.strictObject({ type: z.literal('inspect'), id: REQUEST_ID }),
  // What the Python interpreter offers the labs' peer series (python-worker.ts).
  z.strictObject({ type: z.literal('peers'), id: REQUEST_ID, libraries: z.array(z.enum(PEER_LIBRARIES)).max(PEER_LIBRARIES.length) }),
  z.strictObject({ type: z.literal('telemetry'), id: REQUEST_ID, device: z.string().max(16) }),
  // A kernel playground run: compile, verify, time. The job is validated separately, like a measurement.
  z.strictObject({ type: z.literal('kernel'), id: REQUEST_ID, job: z.unknown() }),
  // A run's points are all measured: the inputs kept for its next point can go (host/kept-inputs.ts). No answer.
  z.strictObject({ type: z.literal('runEnded') }),
  // Test hook: the host dies for real. Honoured only when the host was started with GPU_LAB_TEST_HOOKS=1.
  z.strictObject({ type: z.literal('crash'), how: z.enum(['abort', 'segfault']) }),
]);
export type ToHost = z.infer<typeof TO_HOST>;

export const ERROR_PAYLOAD = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const FROM_HOST = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), pid: z.int() }),
  z.strictObject({ type: z.literal('pong'), id: REQUEST_ID }),
  z.strictObject({ type: z.literal('progress'), id: REQUEST_ID, done: z.int().min(0), total: z.int().min(0) }),
  // The result's shape depends on the request; the supervisor validates it against the request's schema.
  z.strictObject({ type: z.literal('result'), id: REQUEST_ID, result: z.unknown() }),
  z.strictObject({ type: z.literal('error'), id: REQUEST_ID, error: ERROR_PAYLOAD }),
  z.strictObject({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
]);
export type FromHost = z.infer<typeof FROM_HOST>;

// Environment variable that enables the crash hook in the host; never set outside tests.
export const TEST_HOOKS_ENV = 'GPU_LAB_TEST_HOOKS';
// With the hooks on: the type of request ("inspect", "measure", …) on whose arrival the host crashes, so that a test
// can crash the host of a command it only spawns (`gpu-lab devices`).
export const TEST_CRASH_ON_ENV = 'GPU_LAB_TEST_CRASH_ON';
