// The teacher's table of the class (main/classroom/class-overview.ts) over generated classes: each student's latest
// completed run of each setup is shown once, and only those feed the class's range; a figure is flagged only where
// its interval lies wholly beyond that range (never by its median alone, never with fewer than five students);
// runs of other setups are other tables; students with no finished run of a lab are named as not having run it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MIN_CLASS_STUDENTS } from '../../../main/common/pure/claims.ts';
import { MAX_SETUPS_A_STUDENT } from '../../../main/common/pure/class-text.ts';
import type { ClassStudent } from '../../../main/common/contract/classroom.ts';
import type { Finding, RunStatus } from '../../../main/common/run-record.ts';
import { classOverview } from '../../../main/classroom/class-overview.ts';
import type { ClassRun } from '../../../main/classroom/class-overview.ts';
import type { StoredStudent } from '../../../main/classroom/class-store.ts';

const LAB = 'matmul-breakeven';
const HEADLINE = 'gpu-transfers-break-even';

function student(i: number, removed = false): StoredStudent {
  return { id: `s-${i.toString(16).padStart(12, '0')}`, name: `Student ${i}`, tokenHash: null, joinedAt: '2026-01-01T00:00:00Z', removedAt: removed ? '2026-01-02T00:00:00Z' : null };
}

function breakEven(value: number | null, interval?: { low: number | null; high: number | null }): Finding {
  return { id: HEADLINE, message: { key: 'matmul-breakeven.findings.overtakes', values: { series: 'x', size: 1 } }, value, unit: 'N', tone: 'info', ...(interval ? { interval } : {}) };
}

let clock = 0;
function run(s: StoredStudent, findings: Finding[], options: { status?: RunStatus; device?: string; params?: Record<string, number[]> } = {}): ClassRun {
  clock++;
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString();
  return { id: `run-${clock}`, lab: LAB, device: options.device ?? 'cuda:0', status: options.status ?? 'completed', createdAt: at, finishedAt: at, student: s, params: options.params ?? { sizes: [100, 200] }, findings };
}

function roster(students: StoredStudent[]): ClassStudent[] {
  return students.filter((s) => s.removedAt === null).map((s) => ({ id: s.id, name: s.name, joinedAt: s.joinedAt, runs: 0, kernelRuns: 0 }));
}

const overviewOf = (students: StoredStudent[], runs: ClassRun[]) => classOverview({ name: 'HPC', caps: { maxPoints: 400, maxBytes: 2 ** 32, maxSeconds: 600 }, roster: roster(students) }, runs);

// A student's break-even: its value and how far its interval reaches each way (a factor), or an open side.
const figure = fc.record({
  value: fc.double({ min: 50, max: 5000, noNaN: true }),
  below: fc.option(fc.double({ min: 1, max: 3, noNaN: true }), { nil: null }),
  above: fc.option(fc.double({ min: 1, max: 3, noNaN: true }), { nil: null }),
});

describe('the class’s table of a lab', () => {
  it('flags a student’s figure only where its whole interval lies beyond the range of the students’ latest runs', () => {
    fc.assert(
      fc.property(fc.array(figure, { minLength: 1, maxLength: 30 }), fc.array(fc.double({ min: 50, max: 5000, noNaN: true }), { maxLength: 30 }), (figures, earlier) => {
        const students = figures.map((_, i) => student(i + 1));
        // Older runs first: each student's earlier run must not count.
        const runs = [
          ...earlier.slice(0, students.length).map((v, i) => run(students[i] as StoredStudent, [breakEven(v * 100, { low: v * 100, high: v * 100 })])),
          ...figures.map((f, i) => run(students[i] as StoredStudent, [breakEven(f.value, { low: f.below === null ? null : f.value / f.below, high: f.above === null ? null : f.value * f.above })])),
        ];
        const lab = overviewOf(students, runs).labs.find((l) => l.lab === LAB);
        const [setup] = lab?.setups ?? [];
        expect(setup?.rows).toHaveLength(students.length);
        expect(new Set(setup?.rows.map((r) => r.studentId)).size).toBe(students.length);
        const range = setup?.columns[0]?.range ?? null;
        if (students.length < MIN_CLASS_STUDENTS) expect(range).toBeNull();
        else expect(range?.students).toBe(students.length);
        for (const row of setup?.rows ?? []) {
          const n = row.numbers[0];
          const f = n?.finding;
          expect(f?.value).toBe(figures[Number(row.student.split(' ')[1]) - 1]?.value);
          if (!range) {
            expect(n?.against).toBeNull();
            continue;
          }
          const low = f?.interval?.low ?? null;
          const high = f?.interval?.high ?? null;
          expect(n?.against === 'above').toBe(low !== null && low > range.high);
          expect(n?.against === 'below').toBe(high !== null && high < range.low);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('flags one student of a class whose interval lies far above everyone else’s, and nobody else', () => {
    const students = Array.from({ length: 8 }, (_, i) => student(i + 1));
    const runs = students.map((s, i) => run(s, [breakEven(i === 7 ? 40_000 : 1000 + 50 * i, i === 7 ? { low: 30_000, high: 50_000 } : { low: 900 + 50 * i, high: 1100 + 50 * i })]));
    const [setup] = overviewOf(students, runs).labs.find((l) => l.lab === LAB)?.setups ?? [];
    expect(setup?.rows.map((r) => r.numbers[0]?.against)).toEqual(['within', 'within', 'within', 'within', 'within', 'within', 'within', 'above']);
    // Its median alone beyond the range is not enough: an interval reaching back into it is not flagged.
    const open = students.map((s, i) => run(s, [breakEven(i === 7 ? 40_000 : 1000 + 50 * i, i === 7 ? { low: 1000, high: 50_000 } : { low: 900 + 50 * i, high: 1100 + 50 * i })]));
    const [again] = overviewOf(students, open).labs.find((l) => l.lab === LAB)?.setups ?? [];
    expect(again?.rows.at(-1)?.numbers[0]?.against).toBe('within');
  });

  it('puts runs of other devices or parameters in tables of their own, and shows only each student’s latest of each', () => {
    const [ana, bob] = [student(1), student(2)];
    const runs = [
      run(ana, [breakEven(100, { low: 90, high: 110 })]),
      run(ana, [breakEven(120, { low: 110, high: 130 })]),
      run(ana, [breakEven(300, { low: 250, high: 350 })], { device: 'cpu' }),
      run(bob, [breakEven(140, { low: 130, high: 150 })], { params: { sizes: [100, 500] } }),
    ];
    const lab = overviewOf([ana, bob], runs).labs.find((l) => l.lab === LAB);
    expect(lab?.setups.map((s) => [s.device, s.params, s.rows.map((r) => [r.student, r.numbers[0]?.finding.value])])).toEqual([
      ['cpu', { sizes: [100, 200] }, [['Student 1', 300]]],
      ['cuda:0', { sizes: [100, 200] }, [['Student 1', 120]]],
      ['cuda:0', { sizes: [100, 500] }, [['Student 2', 140]]],
    ]);
  });

  it('names who has not run a lab, shows a failed run with its status and no figure, and keeps a removed student’s runs', () => {
    const [ana, bob, cleo, dan] = [student(1), student(2), student(3), student(4, true)];
    const runs = [run(ana, [], { status: 'failed' }), run(dan, [breakEven(100, { low: 90, high: 110 })])];
    const lab = overviewOf([ana, bob, cleo, dan], runs).labs.find((l) => l.lab === LAB);
    const rows = lab?.setups.flatMap((s) => s.rows) ?? [];
    expect(rows.map((r) => [r.student, r.status, r.removed, r.numbers])).toEqual([
      ['Student 1', 'failed', false, [null]],
      ['Student 4', 'completed', true, [expect.objectContaining({ against: null })]],
    ]);
    expect(lab?.notRun.map((s) => s.name)).toEqual(['Student 2', 'Student 3']);
    // Every other lab: nobody has run it.
    for (const other of overviewOf([ana, bob, cleo, dan], runs).labs.filter((l) => l.lab !== LAB)) expect(other.notRun).toHaveLength(3);
  });

  it('shows each student’s latest few setups of a lab only, and counts the completed runs of the older ones it leaves out', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ who: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 1, max: 8 }) }), { minLength: 1, maxLength: 40 }), (plays) => {
        const students = [student(1), student(2), student(3)];
        // Each run a setup of its own sizes; a student may run one setup many times.
        const runs = plays.map((p) => run(students[p.who] as StoredStudent, [breakEven(100 * p.size, { low: 90 * p.size, high: 110 * p.size })], { params: { sizes: [100, 100 * p.size] } }));
        const lab = overviewOf(students, runs).labs.find((l) => l.lab === LAB);
        let earlier = 0;
        for (const [i, s] of students.entries()) {
          const own = plays.filter((p) => p.who === i);
          // The setups a student ran, the most recently run last.
          const order: number[] = [];
          for (const p of own) order.splice(0, order.length, ...order.filter((x) => x !== p.size), p.size);
          const shown = order.slice(-MAX_SETUPS_A_STUDENT);
          const rows = lab?.setups.flatMap((setup) => setup.rows.filter((r) => r.studentId === s.id).map((r) => [setup.params.sizes, r.numbers[0]?.finding.value])) ?? [];
          expect(rows.sort()).toEqual(shown.map((size) => [[100, 100 * size], 100 * size]).sort());
          earlier += own.filter((p) => !shown.includes(p.size)).length;
        }
        expect(lab?.earlier).toBe(earlier);
      }),
    );
  });
});
