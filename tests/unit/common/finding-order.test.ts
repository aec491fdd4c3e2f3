// The headline a run leads with and the order of the rest, over generated findings: the headline is the first of the
// lab's headline ids the run has, else its first finding about the lab, never one about the run (its noise, its
// waived series) while a lab finding exists; no finding is lost or shown twice; the warnings come before the others.
import { existsSync, readFileSync } from 'node:fs';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isRunFinding, orderFindings } from '../../../main/common/pure/finding-order.ts';
import { labDescriptors } from '../../../main/labs/index.ts';

type Tone = 'info' | 'warning';
const LAB_IDS = ['cpu-rate', 'gpu-transfers-speedup', 'gpu-cublas-speedup', 'fusion', 'threads', 'sync', 'footprint'];
const RUN_IDS = ['noisy', 'waived-0', 'waived-3', 'cpu-steal', 'gpu-clock-dropped', 'points-failed', 'verification-failed'];

const findingsArb = fc
  .uniqueArray(fc.constantFrom(...LAB_IDS, ...RUN_IDS), { maxLength: 12 })
  .chain((ids) => fc.tuple(fc.constant(ids), fc.array(fc.constantFrom<Tone>('info', 'warning'), { minLength: ids.length, maxLength: ids.length })))
  .map(([ids, tones]) => ids.map((id, i) => ({ id, tone: tones[i] ?? 'info' })));

describe('orderFindings', () => {
  it('leads with the first headline id present, else the first lab finding; loses nothing; warnings first', () => {
    fc.assert(
      fc.property(findingsArb, fc.uniqueArray(fc.constantFrom(...LAB_IDS), { maxLength: 4 }), (findings, headline) => {
        const { headline: lead, rest } = orderFindings(findings, headline);
        const wanted = headline.find((id) => findings.some((f) => f.id === id));
        if (wanted) expect(lead?.id).toBe(wanted);
        else if (findings.some((f) => !isRunFinding(f.id))) expect(lead?.id).toBe(findings.find((f) => !isRunFinding(f.id))?.id);
        else expect(lead).toBeNull();
        // Every finding once: the headline and the rest together are the run's findings.
        const shown = [...(lead ? [lead] : []), ...rest].map((f) => f.id);
        expect([...shown].sort()).toEqual(findings.map((f) => f.id).sort());
        // The warnings before the rest, each group in the lab's order.
        const firstInfo = rest.findIndex((f) => f.tone !== 'warning');
        if (firstInfo >= 0) expect(rest.slice(firstInfo).every((f) => f.tone !== 'warning')).toBe(true);
        const inLabOrder = (group: typeof rest): boolean => group.every((f, i) => i === 0 || findings.findIndex((g) => g === group[i - 1]) < findings.indexOf(f));
        expect(inLabOrder(rest.filter((f) => f.tone === 'warning'))).toBe(true);
        expect(inLabOrder(rest.filter((f) => f.tone !== 'warning'))).toBe(true);
      }),
    );
  });

  it("every lab's headline ids are findings its lab can make, not findings about the run", () => {
    for (const lab of labDescriptors()) {
      expect(lab.headline.length, lab.id).toBeGreaterThan(0);
      for (const id of lab.headline) expect(isRunFinding(id), `${lab.id}: ${id}`).toBe(false);
      // The H100's recorded run of the lab leads with the lab's first choice: the ids are the lab's real ones. No GPU
      // of these machines has recorded text-to-image's yet (tests/unit/labs/text-to-image.test.ts makes its findings).
      const file = new URL(`../../fixtures/runs/h100-${lab.id}.json`, import.meta.url);
      if (lab.id === 'text-to-image' && !existsSync(file)) continue;
      const recorded = JSON.parse(readFileSync(file, 'utf8')) as { findings: { id: string; tone: 'info' | 'warning' }[] };
      expect(orderFindings(recorded.findings, lab.headline).headline?.id, lab.id).toBe(lab.headline[0]);
    }
  });

  // A finding added to run-findings.ts but not to finding-order.ts could become a lab's headline ("3 points were
  // noisy" as the result of the matrix product): every id the run's findings are made with is known as the run's.
  it('knows every finding the run itself makes as one about the run', () => {
    const source = readFileSync(new URL('../../../main/runs/run-findings.ts', import.meta.url), 'utf8');
    const ids = [...source.matchAll(/(?:pointsFinding|finding)\(\s*[`']([a-z-]+)(\$\{[^}]*\})?[`']/g)].map((m) => `${m[1] ?? ''}${m[2] ? '0' : ''}`);
    expect(ids.length).toBeGreaterThanOrEqual(8);
    for (const id of ids) expect(isRunFinding(id), id).toBe(true);
  });
});
