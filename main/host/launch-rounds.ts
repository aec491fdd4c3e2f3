// How a playground kernel's launches are timed, whoever launches it (the compute host after NVRTC, or Python through
// PyCUDA or cuda.core): WARMUP launches first, then about half a second of GPU time, never fewer than
// MIN_INTERVAL_SAMPLES (the fewest that give the median an interval), at most 100; taken in rounds, and stopped early
// once the median's 95 % interval lies within ±2 % of it, as the labs' points stop (sampling.ts). A 25 ms SGEMM then
// takes 6 launches, not 20.
import { MIN_INTERVAL_SAMPLES } from '../common/pure/statistics.ts';
import { converged } from './sampling.ts';

export const WARMUP = 2;
const TIMING_BUDGET_MS = 500;
const MAX_REPEATS = 100;

// `round(warmup, repeats)`: that many launches' times, after that many untimed ones; `firstMs`, one launch's time.
export async function launchRounds(firstMs: number, round: (warmup: number, repeats: number) => Promise<number[]>): Promise<number[]> {
  const planned = Math.min(MAX_REPEATS, Math.max(MIN_INTERVAL_SAMPLES, Math.ceil(TIMING_BUDGET_MS / Math.max(firstMs, 0.001))));
  const size = Math.max(MIN_INTERVAL_SAMPLES, Math.ceil(planned / 4));
  const samples: number[] = [];
  while (samples.length < planned) {
    samples.push(...(await round(samples.length === 0 ? WARMUP : 0, Math.min(size, planned - samples.length))));
    if (converged(samples)) break;
  }
  return samples;
}
