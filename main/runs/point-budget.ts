// The sampling time a point is given: its measurement's own budget, else its share of the plan's expected time. The
// runner hands it to the engine; a class's queue adds it up into a run's time limit.
import { MIN_BUDGET_SECONDS } from '../common/pure/statistics.ts';
import type { PlannedPoint } from '../labs/lab.ts';

export function pointBudgetSeconds(point: PlannedPoint): number {
  return point.measurement?.budgetSeconds ?? Math.min(3600, Math.max(point.expectedSeconds, MIN_BUDGET_SECONDS));
}
