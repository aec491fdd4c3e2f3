// Kernel runs as the store keeps them: every recorded run of an earlier build is read into the counts this version
// writes (wrong among checked, never written apart, no error sentinel), what it cannot split is kept as its own
// count, a run read back and saved again reads the same, and a run that says more wrong than checked is refused.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { KERNEL_RUN } from '../../../main/common/playground.ts';

const dir = join(import.meta.dirname, '../../fixtures/kernel-runs');
const raw = (name: string): Record<string, unknown> & { result: { verification: Record<string, unknown> } } => JSON.parse(readFileSync(join(dir, name), 'utf8')) as never;

describe('verifications recorded by an earlier build', () => {
  it.each(readdirSync(dir).filter((n) => n.endsWith('.json')))('%s reads with wrong ≤ checked and no sentinel, and reads the same once saved again', (name) => {
    const run = KERNEL_RUN.parse(raw(name));
    const v = run.result?.verification;
    if (v) {
      expect(v.mismatchCount === null || v.mismatchCount <= v.checked).toBe(true);
      expect(v.maxRelativeError === null || v.maxRelativeError < 1e300).toBe(true);
    }
    expect(KERNEL_RUN.parse(JSON.parse(JSON.stringify(run)))).toEqual(run);
  });

  it('an off-by-one SAXPY: its one NaN, listed, was never written; no largest error', () => {
    const v = KERNEL_RUN.parse(raw('h100-saxpy-off-by-one.json')).result?.verification;
    expect(v).toMatchObject({ mismatchCount: 1, neverWritten: 1, maxRelativeError: null });
    expect(v?.mismatches[0]).toMatchObject({ index: 16777215, unwritten: true });
  });

  it('a reduction without barriers: its NaN total was computed (the total is zeroed before the launch), not unwritten', () => {
    const v = KERNEL_RUN.parse(raw('h100-reduction-race.json')).result?.verification;
    expect(v).toMatchObject({ mismatchCount: 1, neverWritten: 0, maxRelativeError: null });
    expect(v?.mismatches[0]).toMatchObject({ got: null, unwritten: false });
  });

  it('the SGEMM of issue 24 (16542648 "wrong" of 12285 checked): its count kept apart, as one that cannot be split', () => {
    const sgemm = raw('h100-sgemm-starter.json');
    Object.assign(sgemm.result.verification, { ok: false, checked: 12285, mismatchCount: 16542648, maxRelativeError: Number.MAX_VALUE });
    const v = KERNEL_RUN.parse({ ...sgemm, status: 'verification-failed' }).result?.verification;
    expect(v).toMatchObject({ checked: 12285, mismatchCount: null, neverWritten: null, olderWrongOrUnwritten: 16542648, maxRelativeError: null });
  });

  it('a verified SGEMM of an earlier build: nothing was NaN, so nothing was left unwritten', () => {
    const v = KERNEL_RUN.parse(raw('h100-sgemm-starter.json')).result?.verification;
    expect(v).toMatchObject({ checked: 12283, mismatchCount: 0, neverWritten: 0 });
    expect(v?.maxRelativeError).toBeCloseTo(0.001634, 6);
  });
});

describe('verifications as this version writes them', () => {
  const now = (changes: Record<string, unknown>): unknown => {
    const run = raw('h100-sgemm-starter.json');
    return { ...run, result: { ...run.result, verification: { ...run.result.verification, neverWritten: 0, ...changes } } };
  };

  it('refuses more wrong elements than checked, and more never written than the output holds, naming the field', () => {
    const wrong = KERNEL_RUN.safeParse(now({ ok: false, mismatchCount: 12284 }));
    expect(wrong.success).toBe(false);
    // Inside the union of this version's shape and the earlier one's: the issue of this version's names the field.
    expect(JSON.stringify(wrong.error?.issues)).toContain('"path":["mismatchCount"],"message":"at most `checked` wrong elements"');
    const unwritten = KERNEL_RUN.safeParse(now({ ok: false, neverWritten: 4096 * 4096 + 1 }));
    expect(JSON.stringify(unwritten.error?.issues)).toContain('"path":["neverWritten"],"message":"at most `total` elements never written"');
  });

  it('keeps a null largest error as null', () => {
    const parsed = KERNEL_RUN.parse(now({ ok: false, mismatchCount: 3, maxRelativeError: null }));
    expect(parsed.result?.verification?.maxRelativeError).toBeNull();
  });
});
