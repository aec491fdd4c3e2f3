// How much one serve-mode client may ask. The app itself sends a few requests a second and starts one run at a time;
// these limits sit far above that, and stop a page gone wrong (or a script holding the token) from queuing work
// without end: requests a second and at once per WebSocket, and runs started across the whole server. A request past
// a limit is answered RATE_LIMITED and not run.
import type { GpuLabApi } from '../common/contract/index.ts';
import { GpuLabError } from '../common/errors.ts';

export interface RequestLimits {
  // A WebSocket may send `burst` requests at once, then `perSecond` more every second.
  burst: number;
  perSecond: number;
  // Requests of one WebSocket being worked on at the same time.
  inFlight: number;
  // Runs started through this server and not ended yet (queued or running).
  runsWaiting: number;
  // Runs started through this server in any one minute.
  runStartsPerMinute: number;
}

export const DEFAULT_LIMITS: RequestLimits = { burst: 200, perSecond: 100, inFlight: 32, runsWaiting: 8, runStartsPerMinute: 30 };

// The contract's arguments nest four levels at most (a run request's parameter lists). Far deeper ones are refused
// at the door: checks and error messages that walk a value recursively would run out of stack on them.
export const MAX_ARGUMENT_NESTING = 32;

// Whether `value` has arrays or objects nested more than `limit` deep; walked without recursion.
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    // Binary data (which Electron's IPC can carry) holds numbers, not nesting.
    if (typeof item !== 'object' || item === null || ArrayBuffer.isView(item) || item instanceof ArrayBuffer) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

export function tooDeep(method: unknown): GpuLabError {
  const what = typeof method === 'string' ? `The arguments of ${method.slice(0, 64)} nest` : 'A request nests';
  return new GpuLabError('INVALID_ARGUMENT', `${what} deeper than ${MAX_ARGUMENT_NESTING} levels`, { limit: 'argument nesting' });
}

// A token bucket: `burst` requests at once, refilled at `perSecond`.
export class RequestRate {
  private tokens: number;
  private last: number;
  private readonly limits: Pick<RequestLimits, 'burst' | 'perSecond'>;
  private readonly now: () => number;

  constructor(limits: Pick<RequestLimits, 'burst' | 'perSecond'>, now: () => number = () => performance.now()) {
    this.limits = limits;
    this.now = now;
    this.tokens = limits.burst;
    this.last = now();
  }

  // Whether one more request may be run now; it is counted if so.
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.last) / 1000) * this.limits.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  refusal(): GpuLabError {
    return new GpuLabError(
      'RATE_LIMITED',
      `Too many requests on this connection (at most ${this.limits.burst} at once, then ${this.limits.perSecond} a second); this one was not run`,
      { limit: 'requests per second' },
    );
  }
}

// Run starts across the server. A start is counted from the moment it is admitted, so that a burst of starts sent
// together cannot all pass before the first one is answered; one that fails (invalid parameters) gives its place back.
export class RunStartLimit {
  private readonly limits: Pick<RequestLimits, 'runsWaiting' | 'runStartsPerMinute'>;
  private readonly now: () => number;
  private readonly waiting = new Set<string>();
  // Runs that ended before their start was answered (a run that fails at once can).
  private readonly endedEarly = new Set<string>();
  private readonly startTimes: number[] = [];
  private admitted = 0;
  private readonly subscription: { dispose(): void };

  constructor(api: GpuLabApi, limits: Pick<RequestLimits, 'runsWaiting' | 'runStartsPerMinute'>, now: () => number = () => performance.now()) {
    this.limits = limits;
    this.now = now;
    this.subscription = api.runs.onDidChangeRun((event) => {
      if (event.kind !== 'completed' && event.kind !== 'cancelled' && event.kind !== 'failed') return;
      if (!this.waiting.delete(event.runId) && this.admitted > 0) this.endedEarly.add(event.runId);
    });
  }

  // Null when one more run may start (it is then counted until settle()), else why not.
  admit(): GpuLabError | null {
    const minuteAgo = this.now() - 60_000;
    while (this.startTimes.length > 0 && (this.startTimes[0] ?? 0) <= minuteAgo) this.startTimes.shift();
    if (this.waiting.size + this.admitted >= this.limits.runsWaiting) {
      return new GpuLabError(
        'RATE_LIMITED',
        `${this.limits.runsWaiting} runs started here are already waiting or running; start this one when one of them has ended`,
        { limit: 'runs waiting' },
      );
    }
    if (this.startTimes.length + this.admitted >= this.limits.runStartsPerMinute) {
      return new GpuLabError('RATE_LIMITED', `At most ${this.limits.runStartsPerMinute} runs may be started a minute; try again shortly`, {
        limit: 'run starts per minute',
      });
    }
    this.admitted += 1;
    return null;
  }

  // The answer to an admitted start: a started run counts until its end event; a refused one not at all.
  settle(runId: string | null): void {
    this.admitted -= 1;
    if (runId === null) return;
    this.startTimes.push(this.now());
    if (!this.endedEarly.delete(runId)) this.waiting.add(runId);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
