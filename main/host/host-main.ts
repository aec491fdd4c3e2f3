// The compute host: the only process that loads the native addon. It answers the supervisor's requests one
// message at a time, validates each on arrival, and turns every failure into an error payload, never an exit.
import { homedir } from 'node:os';

import { GpuLabError } from '../common/errors.ts';
import { MEASUREMENT } from '../common/measurement.ts';
import { searchCudaLibrariesIn } from '../../native/index.ts';
import { SYSTEM_CONDA, SYSTEM_TOOLKIT_ROOT, cudaLibraryDirs } from './cuda-library-dirs.ts';
import { deviceReport, deviceTelemetry } from './device-report.ts';
import { environmentSnapshot } from './host-environment.ts';
import { runEnded } from './kept-inputs.ts';
import { measure } from './ops/index.ts';
import { peerRunEnded } from './ops/peer.ts';
import type { MeasureContext } from './ops/index.ts';
import { KERNEL_JOB } from '../common/kernel-job.ts';
import { runKernelJob } from './kernel-run.ts';
import { probePeers } from './python-worker.ts';
import { TEST_CRASH_ON_ENV, TEST_HOOKS_ENV, TO_HOST } from '../common/host-protocol.ts';
import type { FromHost } from '../common/host-protocol.ts';

const inFlight = new Map<number, AbortController>();

// One piece of GPU or CPU work at a time: a kernel run from the playground must not share the device (or the cores)
// with a lab's measurement, or both would time each other. Requests wait their turn in arrival order.
let working: Promise<unknown> = Promise.resolve();
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const turn = working.then(work, work);
  working = turn.catch(() => undefined);
  return turn;
}
// Progress messages at most every 50 ms: a 10⁴-repeat measurement must not flood the channel.
const PROGRESS_INTERVAL_MS = 50;

// Electron starts this file as a utility process, whose channel to main is process.parentPort; under plain Node it
// is a forked child with process.send. Both carry structured-cloneable messages.
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: FromHost): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

// Answers a request whose work is synchronous: its result, or its error as a payload.
async function answer(id: number, work: () => unknown): Promise<void> {
  try {
    send({ type: 'result', id, result: await work() });
  } catch (err) {
    send({ type: 'error', id, error: GpuLabError.from(err).toPayload() });
  }
}

function invalidRequest(issues: { path: PropertyKey[]; message: string }[]): GpuLabError {
  const first = issues[0];
  const where = first && first.path.length ? `\`${first.path.map(String).join('.')}\`` : 'the request';
  return new GpuLabError('INVALID_ARGUMENT', `Invalid measurement: ${where}: ${first?.message ?? 'invalid'}`, {
    issues: issues.slice(0, 5).map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  });
}

// After a fault (an illegal address) or a kernel still running past its watchdog, the device context is unusable:
// this process answers, then kills itself, and the supervisor starts a fresh one for the next request. SIGKILL, not
// exit(): a normal exit frees device memory and tears the context down, and both wait for a kernel that never ends.
function isSticky(err: GpuLabError): boolean {
  return err.code === 'DEVICE_LOST' || err.details?.sticky === true;
}

function sendThenExit(message: FromHost): void {
  if (parentPort) {
    parentPort.postMessage(message);
    // postMessage has queued the message; give the port a moment to flush it.
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);
  } else {
    process.send?.(message, undefined, {}, () => process.kill(process.pid, 'SIGKILL'));
  }
}

// A measurement or a kernel run: checked on arrival, run in its turn, cancellable, answered with its result or its
// error; after a sticky error, the last answer of this process.
async function onWork<T>(id: number, parsed: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }, work: (data: T, ctx: MeasureContext) => Promise<unknown>): Promise<void> {
  if (!parsed.success) {
    send({ type: 'error', id, error: invalidRequest(parsed.error.issues).toPayload() });
    return;
  }
  const controller = new AbortController();
  inFlight.set(id, controller);
  let lastProgress = 0;
  const ctx: MeasureContext = {
    signal: controller.signal,
    onProgress: (done, total) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && done < total) return;
      lastProgress = now;
      send({ type: 'progress', id, done, total });
    },
  };
  try {
    send({ type: 'result', id, result: await exclusive(() => work(parsed.data, ctx)) });
  } catch (err) {
    const error = GpuLabError.from(err);
    if (isSticky(error)) sendThenExit({ type: 'error', id, error: { ...error.toPayload(), details: { ...error.details, sticky: true, hostRestarted: true } } });
    else send({ type: 'error', id, error: error.toPayload() });
  } finally {
    inFlight.delete(id);
  }
}

function crash(how: 'abort' | 'segfault'): void {
  if (process.env[TEST_HOOKS_ENV] !== '1') {
    send({ type: 'log', level: 'warn', message: `refused a crash request: ${TEST_HOOKS_ENV} is not set` });
    return;
  }
  if (how === 'abort') process.abort();
  process.kill(process.pid, 'SIGSEGV');
}

function onRequest(raw: unknown): void {
  const parsed = TO_HOST.safeParse(raw);
  if (!parsed.success) {
    send({ type: 'log', level: 'error', message: `ignored a malformed request: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
    return;
  }
  const msg = parsed.data;
  if (process.env[TEST_CRASH_ON_ENV] === msg.type) crash('segfault');
  switch (msg.type) {
    case 'ping':
      send({ type: 'pong', id: msg.id });
      return;
    case 'cancel':
      inFlight.get(msg.id)?.abort();
      return;
    case 'measure':
      void onWork(msg.id, MEASUREMENT.safeParse(msg.measurement), measure);
      return;
    case 'kernel':
      void onWork(msg.id, KERNEL_JOB.safeParse(msg.job), runKernelJob);
      return;
    case 'environment':
      void answer(msg.id, () => environmentSnapshot(exclusive));
      return;
    case 'inspect':
      void answer(msg.id, () => deviceReport(exclusive));
      return;
    case 'telemetry':
      void answer(msg.id, () => deviceTelemetry(msg.device));
      return;
    case 'peers':
      void answer(msg.id, () => probePeers(msg.libraries));
      return;
    case 'runEnded':
      runEnded();
      peerRunEnded();
      return;
    case 'crash':
      crash(msg.how);
      return;
  }
}

// The parent decides when a run stops: a Ctrl-C or a closed terminal reaches every process of the terminal's group,
// this one included, and the parent turns it into a cancelled run. Were the host to die of it first, the run would
// read as a crash.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);

// Its parent gone (killed with -9 too: the channel's other end closes with the process), the host goes at once,
// without waiting for the sample in progress, which can last seconds on the CPU: process.exit would wait for it, since
// exiting joins the worker thread that runs it. SIGKILL to itself ends the process now; nothing is left to save here.
function dieWithParent(): void {
  for (const controller of inFlight.values()) controller.abort();
  process.kill(process.pid, 'SIGKILL');
}

if (parentPort) {
  // A utility process ends with its parent; no disconnect event to watch.
  parentPort.on('message', (e) => onRequest(e.data));
} else {
  process.on('message', onRequest);
  process.on('disconnect', () => dieWithParent());
}
// Before any request can open cuBLAS or NVRTC: where else they may be than on the loader's path. A failure here
// costs only those folders, never the host.
try {
  searchCudaLibrariesIn(await cudaLibraryDirs({ env: process.env, home: homedir(), toolkitRoot: SYSTEM_TOOLKIT_ROOT, systemConda: SYSTEM_CONDA }));
} catch (err) {
  send({ type: 'log', level: 'warn', message: `looking for the CUDA libraries' folders failed: ${GpuLabError.from(err).message}` });
}
send({ type: 'ready', pid: process.pid });
