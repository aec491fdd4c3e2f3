// The interval each finding's figure lies in (run-record.ts, Finding.interval), over generated runs of every lab: any
// times at any sizes, with anywhere from one sample to twenty-four, tight or spread. The figure always lies within
// its interval (an open side open), and every headline finding with a figure has one, since the teacher's table judges
// a student's figure against the class by it and by nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { validateParams } from '../../../main/common/params.ts';
import { LABS } from '../../../main/labs/index.ts';
import { CPU, GPU, sampledPoint, WITH_GPU } from './synthetic.ts';

// A point's samples: a median anywhere from 10 µs to 10 s, a spread of 0 to 40 %, 1 to 24 samples.
const pointSamples = fc
  .record({ logMedian: fc.double({ min: -2, max: 4, noNaN: true }), spread: fc.double({ min: 0, max: 0.4, noNaN: true }), count: fc.integer({ min: 1, max: 24 }), seed: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 24, maxLength: 24 }) })
  .map(({ logMedian, spread, count, seed }) => seed.slice(0, count).map((u) => 10 ** logMedian * (1 + spread * u)));

describe.each(LABS.map((l) => [l.descriptor.id, l] as const))('%s', (_id, lab) => {
  const params = validateParams(lab.descriptor.id, lab.descriptor.parameters, {});
  const planned = lab.plan(params, WITH_GPU).filter((p) => p.measurement);

  it('gives each figure an interval it lies within, and every headline figure one', () => {
    fc.assert(
      fc.property(fc.array(pointSamples, { minLength: planned.length, maxLength: planned.length }), (samples) => {
        const points = planned.map((p, i) => sampledPoint(p, samples[i] ?? [1]));
        const { findings } = lab.analyze(points, params, GPU, CPU);
        for (const f of findings) {
          if (f.value === null) continue;
          if (lab.descriptor.headline.includes(f.id)) expect(f.interval, `${f.id} = ${f.value}`).toBeDefined();
          if (!f.interval) continue;
          const { low, high } = f.interval;
          if (low !== null) expect(low, `${f.id}: low ${low} above ${f.value}`).toBeLessThanOrEqual(f.value * (1 + 1e-9));
          if (high !== null) expect(high, `${f.id}: high ${high} below ${f.value}`).toBeGreaterThanOrEqual(f.value * (1 - 1e-9));
        }
      }),
      { numRuns: 60 },
    );
  });
});
