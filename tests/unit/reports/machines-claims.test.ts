// What the devices comparison and the reference results say about numbers, checked on generated runs: the recorded
// H100 matrix product measured again on generated "devices" (each point's samples drawn anew, scaled, noisy, few or
// many, a point waived, another size), and for each, that a ratio is given only between points of the same work,
// that "faster" and "slower" are said only where the two 95 % intervals separate, and that the words say it so in
// English and in Spanish. The run shown for each device, and a reference never compared with the run it was made from.
import { readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ReferenceResult } from '../../../main/common/contract/labs.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { summarize } from '../../../main/common/pure/statistics.ts';
import { labDescriptors } from '../../../main/labs/index.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { cellText, compareDevices, runPerDevice } from '../../../main/common/pure/charts/device-comparison.ts';
import { headlinePoints, referenceOf } from '../../../main/common/pure/charts/headlines.ts';
import { referenceBlocks, referenceSentence } from '../../../main/common/pure/charts/reference-rows.ts';

const recorded = withCurrentFindings(STORED_RECORD.parse(JSON.parse(readFileSync(new URL('../../fixtures/runs/h100-matmul.json', import.meta.url), 'utf8'))));
const lab = (locale: Locale): LabDescriptor => labDescriptors(locale).find((l) => l.id === 'matmul') as LabDescriptor;

// How one generated device measured each point: its samples a scale of the recorded median, with noise; or waived.
interface PointPlan {
  scale: number;
  noise: number[];
  waived: boolean;
}

const pointPlan = fc.record({
  scale: fc.double({ min: 0.2, max: 5, noNaN: true }),
  noise: fc.array(fc.double({ min: -0.2, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 14 }),
  waived: fc.boolean(),
});

function measuredAs(p: PointResult, plan: PointPlan): PointResult {
  const base = p.stats?.median ?? 1;
  if (plan.waived) return { ...p, status: 'waived', reason: 'not on this device', stats: null, hostMs: [], deviceMs: null, gflops: null, gbps: null, verification: null };
  const samples = plan.noise.map((n) => base * plan.scale * (1 + n));
  const stats = summarize(samples);
  return { ...p, clock: 'host', hostMs: samples, deviceMs: null, stats, gflops: p.work.flops / (stats.median * 1e6), gbps: p.work.bytes / (stats.median * 1e6) };
}

// A run of the lab on a device of its own (its GPU's UUID), measured by `plans`; `otherSize` changes one point's work.
function deviceRun(i: number, plans: PointPlan[], otherSize: boolean): RunRecord {
  const devices = recorded.environment.devices;
  const gpus = devices?.devices.map((d) => (d.kind === 'cuda' ? { ...d, name: `GPU model ${i}`, details: { ...d.details, uuid: `GPU-${i}` } } : d)) ?? [];
  const points = recorded.points.map((p, j) => {
    const q = measuredAs(p, plans[j % plans.length] ?? { scale: 1, noise: [0], waived: false });
    return otherSize && j === 0 ? { ...q, x: 123, work: { ...q.work, flops: q.work.flops / 2 } } : q;
  });
  return { ...recorded, id: `run-${i}`, createdAt: `2026-11-2${i}T00:00:00.000Z`, environment: { ...recorded.environment, devices: devices ? { ...devices, devices: gpus } : null, gpuUuid: `GPU-${i}` }, points };
}

const devicesPlan = fc.array(fc.record({ plans: fc.array(pointPlan, { minLength: 1, maxLength: 5 }), otherSize: fc.boolean() }), { minLength: 2, maxLength: 4 });

const WORDS: Record<Locale, { faster: string; slower: string; tie: string }> = {
  en: { faster: 'faster', slower: 'slower', tie: 'cannot be told apart' },
  es: { faster: 'más rápido', slower: 'más lento', tie: 'no se distinguen' },
};

describe('one lab across devices', () => {
  it('gives a ratio only between like points, and a direction only where the intervals separate, in both languages', () => {
    fc.assert(
      fc.property(devicesPlan, (plan) => {
        const runs = plan.map((d, i) => deviceRun(i + 1, d.plans, d.otherSize && i > 0));
        const comparison = compareDevices(runs, lab('en'));
        expect(comparison.columns.map((c) => c.runId)).toEqual(runs.map((r) => r.id));
        for (const row of comparison.rows) {
          const [first, ...others] = row.cells;
          for (const cell of others) {
            const bothMeasured = first?.point && cell.point;
            const like = bothMeasured && first.point?.x === cell.point?.x && first.point?.work.flops === cell.point?.work.flops && first.point?.work.bytes === cell.point?.work.bytes;
            expect(cell.ratio !== null).toBe(Boolean(like));
            expect(cell.unlike).toBe(Boolean(bothMeasured && !like));
            if (!cell.point || !first?.point || !cell.order) continue;
            if (cell.order === 'faster') expect(cell.point.high).toBeLessThan(first.point.low);
            else if (cell.order === 'slower') expect(cell.point.low).toBeGreaterThan(first.point.high);
            else expect(cell.point.low <= first.point.high && cell.point.high >= first.point.low).toBe(true);
            for (const locale of ['en', 'es'] as const) {
              const text = cellText(cell, false, translator(locale), lab(locale));
              const words = WORDS[locale];
              expect(text.verdict).toBe(cell.order === 'faster' ? words.faster : cell.order === 'slower' ? words.slower : words.tie);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('calls two devices that measured the same samples indistinguishable, and one twice as slow slower', () => {
    const plan = [{ scale: 1, noise: [0, 0.01, -0.01, 0.02, -0.02, 0.005, 0.015], waived: false }];
    const twice = [{ ...plan[0], scale: 2 } as PointPlan];
    const comparison = compareDevices([deviceRun(1, plan, false), deviceRun(2, plan, false), deviceRun(3, twice, false)], lab('en'));
    for (const row of comparison.rows) {
      expect(row.cells[1]?.order, row.key).toBe('indistinguishable');
      expect(row.cells[2]?.order, row.key).toBe('slower');
      expect(row.cells[2]?.ratio?.value).toBeCloseTo(2, 6);
    }
  });

  it('shows for each device its newest completed run, and tells devices apart by their GPU', () => {
    const plans = [{ scale: 1, noise: [0, 0.01, -0.01, 0.02, -0.02, 0.005], waived: false }];
    const a1 = deviceRun(1, plans, false);
    const a2 = { ...deviceRun(1, plans, false), id: 'run-1-later', createdAt: '2026-11-28T00:00:00.000Z' };
    const a3 = { ...deviceRun(1, plans, false), id: 'run-1-failed-latest', createdAt: '2026-11-29T00:00:00.000Z', status: 'failed' as const };
    const b = deviceRun(2, plans, false);
    const chosen = runPerDevice([a1, b, a3, a2]);
    expect(chosen.map((r) => r.id)).toEqual(['run-1-later', 'run-2']);
    const cpuOnly = STORED_RECORD.parse(JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-matmul.json', import.meta.url), 'utf8')));
    expect(runPerDevice([cpuOnly, a1]).map((r) => r.id)).toEqual(['run-1', cpuOnly.id]);
  });
});

describe('a run beside another machine’s reference', () => {
  const reference: ReferenceResult = { origin: 'shipped', reference: referenceOf(recorded, lab('en')) };

  it('is never compared with the run it was made from', () => {
    expect(referenceBlocks(recorded, lab('en'), [reference])).toEqual([]);
  });

  it('compares like points only, says faster or slower only where the intervals separate, and names the other machine', () => {
    fc.assert(
      fc.property(fc.array(pointPlan, { minLength: 1, maxLength: 5 }), fc.boolean(), (plans, otherSize) => {
        const run = deviceRun(7, plans, otherSize);
        const mine = new Map(headlinePoints(run, lab('en')).map((h) => [h.key, h]));
        const [block] = referenceBlocks(run, lab('en'), [reference]);
        if (!block) throw new Error('no block for the reference');
        expect(block.rows.length + block.unmatched).toBe(reference.reference.points.length);
        for (const row of block.rows) {
          const yours = mine.get(row.key);
          expect(yours?.x).toBe(row.theirs.x);
          expect(yours?.work).toEqual(row.theirs.work);
          if (row.order === 'faster') expect(row.yours.high).toBeLessThan(row.theirs.low);
          else if (row.order === 'slower') expect(row.yours.low).toBeGreaterThan(row.theirs.high);
          else expect(row.yours.low <= row.theirs.high && row.yours.high >= row.theirs.low).toBe(true);
          for (const locale of ['en', 'es'] as const) {
            const sentence = referenceSentence({ ...block, rows: [row] }, row, translator(locale));
            expect(sentence).toContain('NVIDIA H100 80GB HBM3');
            expect(sentence).toContain(locale === 'en' ? '(another machine)' : '(otra máquina)');
            const said = locale === 'en' ? { faster: 'faster,', slower: 'slower,', indistinguishable: 'not told apart' } : { faster: 'más rápida,', slower: 'más lenta,', indistinguishable: 'no se distinguen' };
            expect(sentence).toContain(said[row.order]);
            for (const other of Object.values(said).filter((w) => w !== said[row.order])) expect(sentence).not.toContain(other);
          }
        }
        // A point measured at another size is not a row.
        if (otherSize) expect(block.rows.some((r) => r.key === recorded.points[0]?.key)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });
});
