// Hostile input on the Electron IPC handlers, through registerIpcApi with a fake ipcMain and the real sender check,
// over a real lab host on a data folder of stored runs: thousands of seeded calls from random senders (the app's main
// frame, its subframes, other pages in the window, frames gone or disposed) with random arguments. Every call must
// resolve to a coded answer that Electron could send back (structured-cloneable, no stack); a refused sender must
// never reach the services; no stored run may change or go missing. A failure names the seed:
// GPU_LAB_FUZZ_SEED=<seed> replays it.
import { afterAll, describe, expect, it } from 'vitest';

import { API_METHODS } from '../../../main/common/contract/index.ts';
import { ipcChannel } from '../../../main/common/contract/wire.ts';
import type { ApiResponse } from '../../../main/common/contract/wire.ts';
import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import { appSenderCheck } from '../../../main/electron/app-origin.ts';
import type { FrameLike, SenderEvent } from '../../../main/electron/app-origin.ts';
import { registerIpcApi } from '../../../main/electron/ipc-api.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { FUZZ_SEED, Random, STACK_FRAME, anyMethod, anyValue, argumentsFor, damagedRecords, deepValue, isCodedError, storedRunsFolder } from '../serve/fuzz-cases.ts';

const CASES = 3000;

type Handler = (event: SenderEvent, ...args: unknown[]) => Promise<ApiResponse>;

const data = storedRunsFolder();
const recordsBefore = data.snapshot();
const labHost = createLabHost({ dataDir: data.dataDir, supervisor: { log: () => undefined }, warn: () => undefined });
afterAll(() => labHost.dispose());

// The lab host's services as the IPC layer sees them, each call that reaches one counted.
function countingApi(api: GpuLabApi, reached: string[]): GpuLabApi {
  const services: Record<string, Record<string, unknown>> = {};
  for (const method of API_METHODS) {
    const [service = '', name = ''] = method.split('.');
    const target = (api as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[service];
    services[service] = {
      ...services[service],
      [name]: (...args: unknown[]) => {
        reached.push(method);
        return target?.[name]?.(...args);
      },
    };
  }
  const runs = services.runs ?? {};
  runs.onDidChangeRun = api.runs.onDidChangeRun;
  const classroom = services.classroom ?? {};
  classroom.onDidChangeQueue = api.classroom.onDidChangeQueue;
  return services as unknown as GpuLabApi;
}

const appFrame: FrameLike = { url: 'app://gpu-lab/index.html', processId: 4, routingId: 1 };

// A sender and whether the app's own page sent it: the main frame of the app's window (same process and routing
// id) showing a page of app://gpu-lab. `windowOpen` false: the window is gone.
function sender(rng: Random): { event: SenderEvent; fromApp: boolean; windowOpen: boolean } {
  const windowOpen = rng.chance(0.95);
  const roll = rng.next();
  if (roll < 0.45) {
    const url = rng.pick(['app://gpu-lab/index.html', 'app://gpu-lab/index.html#/labs/matmul', 'app://gpu-lab/index.html?x=1#/runs']);
    return { event: { senderFrame: { ...appFrame, url } }, fromApp: windowOpen, windowOpen };
  }
  if (roll < 0.65) {
    const url = rng.pick(['https://evil.example/', 'http://127.0.0.1:8420/', 'app://gpu-lab.evil/', 'app://gpu-lab@evil/', 'app://evil@gpu-lab.x/', 'app://gpu-lab:81/', 'file:///tmp/index.html', 'about:blank', 'data:text/html,x', 'chrome-error://chromewebdata/', '', 'not a url', 'javascript:alert(1)']);
    return { event: { senderFrame: { ...appFrame, url } }, fromApp: false, windowOpen };
  }
  if (roll < 0.8) {
    const ids = rng.chance(0.5) ? { routingId: 2 + rng.int(100) } : { processId: 5 + rng.int(100) };
    return { event: { senderFrame: { ...appFrame, ...ids } }, fromApp: false, windowOpen };
  }
  if (roll < 0.9) return { event: { senderFrame: null }, fromApp: false, windowOpen };
  const disposed = {
    get url(): string {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    },
    processId: appFrame.processId,
    get routingId(): number {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    },
  };
  return { event: { senderFrame: disposed }, fromApp: false, windowOpen };
}

function problemsWith(answer: unknown): string[] {
  let cloned: unknown;
  try {
    cloned = structuredClone(answer);
  } catch (err) {
    return [`an answer Electron could not send: ${err instanceof Error ? err.message : String(err)}`];
  }
  const text = JSON.stringify(cloned) ?? '';
  const problems: string[] = [];
  if (STACK_FRAME.test(text)) problems.push(`a stack trace in ${text.slice(0, 300)}`);
  const { ok, error } = (cloned ?? {}) as { ok?: unknown; error?: unknown };
  if (ok === true) return problems;
  if (ok !== false || !isCodedError(error)) return [...problems, `an answer without a coded error: ${text.slice(0, 300)}`];
  if ((error as { code: string }).code === 'NATIVE_ERROR') problems.push(`an internal error: ${text.slice(0, 300)}`);
  return problems;
}

describe('fuzzing the IPC handlers', () => {
  it(`answers ${CASES} calls from random senders with coded answers, runs none for a stranger, and loses no stored run (seed ${FUZZ_SEED})`, { timeout: 120_000 }, async () => {
    const rng = new Random(FUZZ_SEED);
    const handlers = new Map<string, Handler>();
    const reached: string[] = [];
    let windowOpen = true;
    const dispose = registerIpcApi<SenderEvent>({
      ipc: { handle: (channel, listener) => handlers.set(channel, listener), removeHandler: (channel) => handlers.delete(channel) },
      api: countingApi(labHost, reached),
      checkSender: appSenderCheck(() => (windowOpen ? appFrame : null)),
      sendEvent: () => undefined,
      log: () => undefined,
    });
    const fuzzStarted = new Set<string>();
    const failures: string[] = [];
    let accepted = 0;
    for (let i = 0; i < CASES && failures.length < 20; i++) {
      const from = sender(rng);
      windowOpen = from.windowOpen;
      const method = anyMethod(rng);
      const handler = handlers.get(ipcChannel(method));
      if (!handler) throw new Error(`no handler for ${method}`);
      // Arguments arrive spread, as ipcRenderer.invoke(channel, ...args) sends them.
      const generated = rng.chance(0.04) ? [deepValue(rng, 1 + rng.int(50_000)).value] : argumentsFor(rng, method, data.runIds);
      const args = Array.isArray(generated) ? generated : [generated, anyValue(rng, 1)];
      const reachedBefore = reached.length;
      const where = `seed ${FUZZ_SEED}, case ${i} (${method} from ${from.fromApp ? 'the app' : 'a stranger'})`;
      let answer: unknown;
      try {
        answer = await handler(from.event, ...args);
      } catch (err) {
        failures.push(`${where}: the handler threw ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      for (const problem of problemsWith(answer)) failures.push(`${where}: ${problem}`);
      if (!from.fromApp) {
        if (reached.length !== reachedBefore) failures.push(`${where}: a refused sender reached ${reached.slice(reachedBefore).join(', ')}`);
        if (!JSON.stringify(answer).includes('was refused')) failures.push(`${where}: not refused: ${JSON.stringify(answer).slice(0, 200)}`);
        continue;
      }
      accepted += 1;
      const runId = (answer as { ok: boolean; value?: { runId?: unknown } }).value?.runId;
      if (method === 'runs.startRun' && typeof runId === 'string') {
        fuzzStarted.add(runId);
        await labHost.runs.cancelRun(runId).catch(() => undefined);
      }
    }
    console.log(`IPC fuzz, seed ${FUZZ_SEED}: ${CASES} calls, ${accepted} from the app's page, ${reached.length} reached the services, runs started ${fuzzStarted.size}`);
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(CASES / 3);

    dispose();
    expect(handlers.size).toBe(0);
    await labHost.close();
    expect(damagedRecords(recordsBefore, data.snapshot(), fuzzStarted), `seed ${FUZZ_SEED}`).toEqual([]);
  });
});
