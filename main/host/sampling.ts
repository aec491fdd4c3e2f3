// When the engine stops sampling a point (README.md, "How a number is made"): one sample first, then rounds of
// samples until the median's 95 % confidence interval lies within ±2 % of it, or the point's time budget is spent,
// or the cap is reached. At least MIN_INTERVAL_SAMPLES samples (fewer give no interval), unless the first sample
// alone outlasts the budget; where those (and the warm-up before them) take longer than the budget, the point's
// budget is what they took, and the record says so. A backend only takes samples (`takeRound`); this file decides
// how many, for every one.
import { GpuLabError } from '../common/errors.ts';
import type { PointSampling } from '../common/measurement.ts';
import { MAX_SAMPLES, MIN_BUDGET_SECONDS, MIN_INTERVAL_SAMPLES, TARGET_INTERVAL_FRACTION, converged, countedSamples } from '../common/pure/statistics.ts';
import type { TimedSamples } from '../common/pure/statistics.ts';

export { MAX_SAMPLES, TARGET_INTERVAL_FRACTION, converged } from '../common/pure/statistics.ts';
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

// A round's samples on their clock (the stopping rule judges those that count: statistics.ts countedSamples), and
// the wall time of each, in ms (a batched sample's runs together), for the budget.
export interface RoundResult extends TimedSamples {
  sampleWallMs: readonly number[];
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

function cancelled(samples: number, sampling: PointSampling): GpuLabError {
  return new GpuLabError('CANCELLED', `The measurement was cancelled after ${samples} samples`, { samples, sampling });
}

// Every round's samples together, on the rounds' clock: device times only where every round has them.
export function joinRounds(rounds: readonly TimedSamples[]): { clock: TimedSamples['clock']; hostMs: number[]; deviceMs: number[] | null } {
  return {
    clock: rounds[0]?.clock ?? 'host',
    hostMs: rounds.flatMap((r) => r.hostMs),
    deviceMs: rounds.every((r) => r.deviceMs) ? rounds.flatMap((r) => r.deviceMs ?? []) : null,
  };
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
  const wall: number[] = [];
  const started = now();
  const taken = (): number => rounds.reduce((sum, r) => sum + r.hostMs.length, 0);
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
    samples: taken(),
    targetFraction: target,
    // The plan's own seconds where its budget is in force: ms and back would be a rounding off it.
    budgetSeconds: budgetMs() === planMs ? options.budgetSeconds : budgetMs() / 1000,
    stop,
  });
  const spent = (): number => now() - started;
  for (;;) {
    if (options.signal?.aborted) throw cancelled(taken(), record('cancelled'));
    // One sample first, to learn whether one alone outlasts the budget; then up to MIN_INTERVAL_SAMPLES; then rounds
    // of half as many again, no more than the rest of the budget holds.
    let want: number;
    if (taken() === 0) want = 1;
    else if (taken() < MIN_INTERVAL_SAMPLES) want = MIN_INTERVAL_SAMPLES - taken();
    else {
      const fit = Math.floor((budgetMs() - spent()) / Math.max(meanWallMs(), 1e-6));
      want = Math.max(1, Math.min(Math.ceil(taken() / 2), fit));
    }
    want = Math.min(want, maxSamples - taken());
    let round: R;
    try {
      round = await takeRound({ first: taken() === 0, samples: want });
    } catch (err) {
      const e = GpuLabError.from(err);
      if (e.code === 'CANCELLED') throw cancelled(taken() + numberOf(e.details?.samples), record('cancelled'));
      throw e;
    }
    rounds.push(round);
    wall.push(...round.sampleWallMs);
    options.onProgress?.(Math.min(spent(), budgetMs()), budgetMs());
    if (taken() === 1 && (wall[0] ?? 0) > Math.max(planMs, (options.wholeBudgetSeconds ?? 0) * 1000)) return { rounds, sampling: { ...record('one-sample-over-budget'), budgetSeconds: options.budgetSeconds } };
    if (taken() < MIN_INTERVAL_SAMPLES && taken() < maxSamples) continue;
    if (minimumMs === 0) minimumMs = spent();
    if (converged(countedSamples(joinRounds(rounds)), target)) return { rounds, sampling: record('converged') };
    if (taken() >= maxSamples) return { rounds, sampling: record('max-samples') };
    if (spent() + meanWallMs() > budgetMs()) return { rounds, sampling: record('budget') };
  }
}

function numberOf(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
