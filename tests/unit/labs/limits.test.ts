// One limit per quantity, declared once (LIMITS in main/common/measurement.ts): a lab may offer less than the engine
// measures, never more. Every lab planned with each of its numbers at the most it allows plans only measurements the
// compute host takes on arrival, and every exercise's size stays within the same limits.
import { describe, expect, it } from 'vitest';

import type { ParamValues } from '../../../main/common/lab-descriptor.ts';
import { EXERCISES } from '../../../main/common/exercises.ts';
import { LIMITS, MEASUREMENT } from '../../../main/common/measurement.ts';
import { validateParams } from '../../../main/common/params.ts';
import { LABS } from '../../../main/labs/index.ts';
import { CPU_ONLY, WITH_GPU } from './synthetic.ts';

// Every number of the lab at its most (a list as the one largest size), the rest at their defaults.
function atMost(parameters: (typeof LABS)[number]['descriptor']['parameters']): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const p of parameters) {
    if (p.kind === 'integer' || p.kind === 'number') values[p.name] = p.max;
    if (p.kind === 'integer-list') values[p.name] = [p.max];
  }
  return values;
}

describe('the limits of a measurement', () => {
  it.each(LABS.map((l) => [l.descriptor.id, l] as const))('%s at its largest parameters plans only measurements the host takes', (id, lab) => {
    const params: ParamValues = validateParams(id, lab.descriptor.parameters, atMost(lab.descriptor.parameters));
    for (const ctx of [WITH_GPU, CPU_ONLY]) {
      for (const p of lab.plan(params, ctx)) {
        if (!p.measurement) continue;
        const parsed = MEASUREMENT.safeParse(p.measurement);
        expect(parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), `${id} ${p.key}`).toBeNull();
      }
    }
  });

  it('every exercise offers sizes within the limits: a matrix order within matrixOrder, a length within elements', () => {
    for (const e of EXERCISES) {
      const limit = e.size.name === 'N' ? LIMITS.matrixOrder : LIMITS.elements;
      expect(e.size.max, e.id).toBeLessThanOrEqual(limit);
    }
  });
});
