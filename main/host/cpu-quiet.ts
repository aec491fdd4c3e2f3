// The CPU handed over quietly between whoever computed last and whoever measures next: the engine's own loops, each
// BLAS library a GEMM runs on, a Python peer. A BLAS's and an OpenMP runtime's threads spin a while after their last
// call before they sleep (OpenBLAS about 0.1 s, GNU OpenMP's a few ms to tens of ms), and a measurement started
// meanwhile shares the cores with them: on the GPU machine's 16 cores such a start cost whole scheduler slices
// (samples of 8 ms where the product takes 0.3 ms). So where the CPU's last work was another's, a measurement waits
// until no thread of the compute host but the caller's, and none of the peers' worker, is running, as Linux tells
// each thread's state in /proc: no longer than those threads really spin, which is also time a run does not spend
// waiting. At most QUIET_CAP_MS (a runtime told never to sleep, OMP_WAIT_POLICY=active, spins for good); where /proc
// tells nothing, QUIET_MS after that work.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const QUIET_MS = 150;
export const QUIET_CAP_MS = 400;
const POLL_MS = 4;
// Quiet is this many readings in a row with nothing running: a thread between two spins can read as sleeping once.
const QUIET_READINGS = 2;

// 'engine' (its loops), 'peer' (a Python peer), or `blas:<id>` (the engine's GEMM on one library).
export type CpuUser = string;

let last: { by: CpuUser; at: number } | null = null;
// Processes besides this one whose threads compute: the Python peers' workers.
const others = new Set<number>();

export function cpuWorkDone(by: CpuUser, now = performance.now()): void {
  last = { by, at: now };
}

export function computeProcessStarted(pid: number): void {
  others.add(pid);
}

export function computeProcessEnded(pid: number): void {
  others.delete(pid);
}

// How long `by` would wait by the clock alone; 0 where the CPU's last work was its own, or long past.
export function quietWaitMs(by: CpuUser, now = performance.now()): number {
  if (!last || last.by === by) return 0;
  return Math.max(0, QUIET_MS - (now - last.at));
}

function threadSelf(): string | null {
  try {
    return readlinkSync('/proc/thread-self').split('/').pop() ?? null;
  } catch {
    return null;
  }
}

// The threads of `pids` Linux has running or ready to run (state R), the calling thread left out; null where /proc
// does not say (not Linux, or this process's own threads unreadable). A process that is gone counts none.
export function runningThreads(pids: readonly number[], self: string | null = threadSelf()): string[] | null {
  const running: string[] = [];
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      if (pid === process.pid) return null;
      continue;
    }
    for (const tid of tids) {
      if (pid === process.pid && tid === self) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
        // The state follows the command's closing parenthesis (the command itself may hold one).
        if (stat.charAt(stat.lastIndexOf(')') + 2) === 'R') running.push(`${pid}/${tid}`);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return running;
}

export interface Quiet {
  waitedMs: number;
  // false where the cap ended the wait, or /proc could not tell and the clock did.
  quiet: boolean;
}

export interface QuietOptions {
  capMs?: number;
  pollMs?: number;
  running?: () => string[] | null;
  // How long to wait where /proc does not tell.
  fallbackMs?: number;
}

// Threads that ran through a whole wait to the cap: no BLAS spins that long after a call, so each is something that
// never sleeps (a runtime told to spin, a polling thread), and later waits do not wait for it again.
const sleepless = new Set<string>();

// Waits until nothing of the compute host (but the caller) nor of the peers' workers runs, read QUIET_READINGS times
// in a row, at most capMs.
export async function untilQuiet(options: QuietOptions = {}): Promise<Quiet> {
  const started = performance.now();
  const capMs = options.capMs ?? QUIET_CAP_MS;
  const pollMs = options.pollMs ?? POLL_MS;
  const self = threadSelf();
  const running = options.running ?? ((): string[] | null => runningThreads([process.pid, ...others], self));
  let calm = 0;
  let throughout: Set<string> | null = null;
  for (;;) {
    const read = running();
    if (read === null) {
      await sleep(Math.max(0, (options.fallbackMs ?? QUIET_MS) - (performance.now() - started)));
      return { waitedMs: performance.now() - started, quiet: false };
    }
    const now = read.filter((t) => !sleepless.has(t));
    throughout = throughout === null ? new Set(now) : new Set(now.filter((t) => throughout?.has(t)));
    calm = now.length === 0 ? calm + 1 : 0;
    if (calm >= QUIET_READINGS) return { waitedMs: performance.now() - started, quiet: true };
    if (performance.now() - started >= capMs) {
      for (const t of throughout) sleepless.add(t);
      return { waitedMs: performance.now() - started, quiet: false };
    }
    await sleep(pollMs);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Before a measurement by `by`: where the CPU's last work was another's and may still be spinning (less than the cap
// ago), wait for it to sleep.
export async function cpuQuiet(by: CpuUser, options: QuietOptions = {}): Promise<Quiet> {
  if (!last || last.by === by || performance.now() - last.at >= (options.capMs ?? QUIET_CAP_MS)) return { waitedMs: 0, quiet: true };
  return untilQuiet({ fallbackMs: quietWaitMs(by), ...options });
}
