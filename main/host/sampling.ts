// When the engine stops sampling a point (README.md, "How a number is made"): one sample first, then rounds of
// samples until the median's 95 % confidence interval lies within ±2 % of it, or the point's time budget is spent,
// or the cap is reached. At least MIN_INTERVAL_SAMPLES samples (fewer give no interval), unless the first sample
// alone outlasts the budget; where those (and the warm-up before them) take longer than the budget, the point's
// budget is what they took, and the record says so. A backend only takes samples (`takeRound`); this file decides
// how many, for every one.
import { GpuLabError } from '../common/errors.ts';
import type { PointSampling } from '../common/run-record.ts';
import { MAX_SAMPLES, MIN_BUDGET_SECONDS, MIN_INTERVAL_SAMPLES, TARGET_INTERVAL_FRACTION, medianInterval, quantile } from '../common/statistics.ts';

export { MAX_SAMPLES, TARGET_INTERVAL_FRACTION } from '../common/statistics.ts';
// The budget of a measurement that names none.
export const DEFAULT_BUDGET_SECONDS = 1;
// Where the budget shrinks to the plan's runs at the measured speed, it still holds this many samples (within the
// plan's budget, and only as far as they take SHRUNK_BUDGET_FLOOR_SECONDS): six samples give an interval only as wide
// as their range, so one slow sample on a shared machine makes the point noisy; twenty give the 6th to the 15th,
// which a few slow ones do not move. On the GPU machine this took the transfer lab's noisy points from 68 of 99 to
// 12; without the time limit it also gave multi-second CPU products 18 samples, and doubled a CPU-only run.
export const SHRUNK_BUDGET_SAMPLES = 20;
export const SHRUNK_BUDGET_FLOOR_SECONDS = 0.25;

export interface RoundRequest {
  // Untimed runs before the round's samples: the measurement's warm-up in the first round only.
  first: boolean;
  samples: number;
}

export interface RoundResult {
  // The samples the stopping rule judges (device time where the point is timed on the device), in ms.
  samples: number[];
  // Wall time of one sample, in ms (a batched sample's runs together), for the budget.
  sampleWallMs: number[];
}

export interface SamplingOptions {
  // The plan's time for the point, from its guessed rates.
  budgetSeconds: number;
  // The runs the plan counted for the point (warm-up and repeats). Where the machine is faster than the plan's guess,
  // the budget shrinks to these runs at the measured speed, so that a noisy point takes no longer than the plan's
  // runs really take here (on a 16-core host the CPU guess is ten times slow, and its budget ten times too long);
  // never below SHRUNK_BUDGET_SAMPLES samples (as far as SHRUNK_BUDGET_FLOOR_SECONDS holds them) or MIN_BUDGET_SECONDS,
  // nor above the plan's budget.
  plannedRuns?: number;
  maxSamples?: number;
  // The point's whole budget where part of it was spent before the samples (a Python peer's setup): a first sample
  // alone longer than this, not than what is left, ends the sampling with that one sample.
  wholeBudgetSeconds?: number;
  // The interval to reach, ± this fraction of the median (absent: TARGET_INTERVAL_FRACTION).
  targetFraction?: number;
  signal?: AbortSignal;
  // Progress as milliseconds of the budget in force spent so far, out of that budget.
  onProgress?: (spentMs: number, budgetMs: number) => void;
  now?: () => number;
}

// Whether the median's interval lies within ±fraction of the median (never with fewer than MIN_INTERVAL_SAMPLES).
export function converged(samples: readonly number[], fraction = TARGET_INTERVAL_FRACTION): boolean {
  const ci = medianInterval(samples);
  if (!ci) return false;
  const median = quantile([...samples].sort((a, b) => a - b), 0.5);
  return ci.low >= median * (1 - fraction) && ci.high <= median * (1 + fraction);
}

function cancelled(samples: number, sampling: PointSampling): GpuLabError {
  return new GpuLabError('CANCELLED', `The measurement was cancelled after ${samples} samples`, { samples, sampling });
}

// Takes rounds until the rule says stop; returns every round's result in order and why it stopped.
export async function sampleAdaptively<R extends RoundResult>(
  takeRound: (round: RoundRequest) => Promise<R>,
  options: SamplingOptions,
): Promise<{ rounds: R[]; sampling: PointSampling }> {
  const now = options.now ?? (() => performance.now());
  const planMs = options.budgetSeconds * 1000;
  const maxSamples = Math.max(options.maxSamples ?? MAX_SAMPLES, 1);
  const rounds: R[] = [];
  const samples: number[] = [];
  const wall: number[] = [];
  const started = now();
  const meanWallMs = (): number => (wall.length ? wall.reduce((sum, v) => sum + v, 0) / wall.length : 0);
  // How long the warm-up and the fewest samples that give an interval took, once they are taken: the statistics'
  // bar (DESIGN §6) holds whatever the budget, so a budget shorter than that is no budget the point could keep. On an
  // H100 PyTorch's copies of 10⁸ elements there and back took 0.34 s a call (tests/fixtures/peer-runs), the warm-up
  // and six samples 2.7 s, where the plan, at the bus's guessed speed, gave the point 1.25 s.
  let minimumMs = 0;
  // The budget in force: the plan's, or its runs at the speed measured so far where that is less; never less than
  // what the minimum took.
  const budgetMs = (): number =>
    Math.max(
      minimumMs,
      options.plannedRuns && wall.length
        ? Math.min(planMs, Math.max(options.plannedRuns * meanWallMs(), Math.min(SHRUNK_BUDGET_SAMPLES * meanWallMs(), SHRUNK_BUDGET_FLOOR_SECONDS * 1000), MIN_BUDGET_SECONDS * 1000))
        : planMs,
    );
  const target = options.targetFraction ?? TARGET_INTERVAL_FRACTION;
  const record = (stop: PointSampling['stop']): PointSampling => ({
    samples: samples.length,
    targetFraction: target,
    budgetSeconds: budgetMs() / 1000,
    stop,
  });
  const spent = (): number => now() - started;
  for (;;) {
    if (options.signal?.aborted) throw cancelled(samples.length, record('cancelled'));
    // One sample first, to learn whether one alone outlasts the budget; then up to MIN_INTERVAL_SAMPLES; then rounds
    // of half as many again, no more than the rest of the budget holds.
    let want: number;
    if (samples.length === 0) want = 1;
    else if (samples.length < MIN_INTERVAL_SAMPLES) want = MIN_INTERVAL_SAMPLES - samples.length;
    else {
      const fit = Math.floor((budgetMs() - spent()) / Math.max(meanWallMs(), 1e-6));
      want = Math.max(1, Math.min(Math.ceil(samples.length / 2), fit));
    }
    want = Math.min(want, maxSamples - samples.length);
    let round: R;
    try {
      round = await takeRound({ first: samples.length === 0, samples: want });
    } catch (err) {
      const e = GpuLabError.from(err);
      if (e.code === 'CANCELLED') throw cancelled(samples.length + numberOf(e.details?.samples), record('cancelled'));
      throw e;
    }
    rounds.push(round);
    samples.push(...round.samples);
    wall.push(...round.sampleWallMs);
    options.onProgress?.(Math.min(spent(), budgetMs()), budgetMs());
    if (samples.length === 1 && (wall[0] ?? 0) > Math.max(planMs, (options.wholeBudgetSeconds ?? 0) * 1000)) return { rounds, sampling: { ...record('one-sample-over-budget'), budgetSeconds: options.budgetSeconds } };
    if (samples.length < MIN_INTERVAL_SAMPLES && samples.length < maxSamples) continue;
    if (minimumMs === 0) minimumMs = spent();
    if (converged(samples, target)) return { rounds, sampling: record('converged') };
    if (samples.length >= maxSamples) return { rounds, sampling: record('max-samples') };
    if (spent() + meanWallMs() > budgetMs()) return { rounds, sampling: record('budget') };
  }
}

function numberOf(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
