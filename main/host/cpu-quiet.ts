// The CPU handed over quietly between the engine and a Python peer. A BLAS's and an OpenMP runtime's threads spin for
// a while after their last call (OpenBLAS about 0.1 s) before they sleep: a measurement started right after the
// other side's would share every core with them, and on the GPU machine's 16 cores such a start cost whole
// scheduler slices (samples of 8 ms where the product takes 0.3 ms). So where the CPU's last work was the other
// side's, a measurement waits until that work is this long past.
const QUIET_MS = 150;

export type CpuUser = 'engine' | 'peer';

let last: { by: CpuUser; at: number } | null = null;

export function cpuWorkDone(by: CpuUser, now = performance.now()): void {
  last = { by, at: now };
}

// How long `by` waits before its next measurement; 0 where the CPU's last work was its own, or long past.
export function quietWaitMs(by: CpuUser, now = performance.now()): number {
  if (!last || last.by === by) return 0;
  return Math.max(0, QUIET_MS - (now - last.at));
}

export async function cpuQuiet(by: CpuUser): Promise<void> {
  const wait = quietWaitMs(by);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
