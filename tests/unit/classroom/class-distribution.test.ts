// A student's run beside the class's numbers: the class's completed runs of the same lab, device and parameters,
// the students' only (not the teacher's, not runs of nobody's), as counts and the smallest, median and largest value
// of each number, with no name and no run id in the answer. Over a real class's server with recorded runs whose
// samples are scaled, so that each run's number is known; and as a property of generated summaries.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { metricOf } from '../../../main/classroom/class-distribution.ts';
import { TEACHER } from '../../../main/classroom/class-store.ts';
import { CLASS_DISTRIBUTION } from '../../../main/common/contract/classroom.ts';
import type { ClassDistribution } from '../../../main/common/contract/classroom.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { ask, join, socketOf, startClassServer } from './class-server.ts';
import type { ClassServer, Student } from './class-server.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url));
const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as RunRecord;
const single = recorded.summary['cpu-single.ms'] ?? 0;
const threads = recorded.summary['cpu-threads.ms'] ?? 0;

// A copy of the recorded run under `id`, its single-thread samples `scale` times as long.
function copy(dir: string, id: string, scale: number, params = recorded.params): void {
  const points = recorded.points.map((p) => (p.key === 'cpu-single' ? { ...p, hostMs: p.hostMs.map((ms) => ms * scale) } : p));
  writeFileSync(joinPath(dir, 'runs', `${id}.json`), JSON.stringify({ ...recorded, id, params, points }));
}

let s: ClassServer;
let ana: Student;
const runOf: Record<string, string> = {};

beforeAll(async () => {
  const dataDir = mkdtempSync(joinPath(tmpdir(), 'gpu-lab-class-spread-'));
  mkdirSync(joinPath(dataDir, 'runs'));
  const plan: [string, number, string, RunRecord['params']?][] = [
    ['ana', 1, 'Ana'],
    ['bob-1', 2, 'Bob'],
    ['bob-2', 1.5, 'Bob'],
    ['cleo', 3, 'Cleo'],
    ['dan-other-params', 50, 'Dan', { ...recorded.params, repeats: 19 }],
    ['teachers', 100, TEACHER],
    ['nobodys', 70, ''],
  ];
  for (const [id, scale, , params] of plan) copy(dataDir, `spread-${id}`, scale, params);
  s = await startClassServer({ dataDir });
  const students: Record<string, Student> = {};
  for (const name of ['Ana', 'Bob', 'Cleo', 'Dan']) students[name] = await join(s, name);
  for (const [id, , owner] of plan) {
    runOf[id] = `spread-${id}`;
    if (owner) await s.classroom.store.own('runs', `spread-${id}`, owner === TEACHER ? TEACHER : (students[owner]?.id ?? ''));
  }
  ana = students.Ana as Student;
});
afterAll(async () => {
  await s.close();
});

describe('a run beside the class', () => {
  it('counts the students’ completed runs of the same lab, device and parameters, and spreads each number over them', async () => {
    const socket = await socketOf(s, ana.token);
    const answer = await ask(socket, 'classroom.classDistribution', [runOf.ana]);
    socket.ws.close();
    const spread: ClassDistribution = CLASS_DISTRIBUTION.parse(answer.value);
    expect(spread).toMatchObject({ lab: 'vector-function', device: 'cpu', params: recorded.params });
    const byKey = new Map(spread.metrics.map((m) => [m.key, m]));
    // Ana ×1, Bob ×2 and ×1.5, Cleo ×3: four runs of three students. Dan's other parameters, the teacher's run and a
    // run of nobody's are not the class's.
    const m = byKey.get('cpu-single.ms');
    expect(m).toMatchObject({ runs: 4, students: 3, outsideSizes: 0 });
    expect(m?.min).toBeCloseTo(single, 6);
    expect(m?.median).toBeCloseTo(single * 1.75, 6);
    expect(m?.max).toBeCloseTo(single * 3, 6);
    expect(byKey.get('cpu-threads.ms')).toMatchObject({ runs: 4, students: 3 });
    expect(byKey.get('cpu-threads.ms')?.min).toBeCloseTo(threads, 6);
    // No GPU here: the GPU's numbers have no value in any run.
    expect(byKey.get('gpu-fused.ms')).toMatchObject({ runs: 0, students: 0, min: null, median: null, max: null });
    // Anonymous: no run id, no student's id or name anywhere in the answer.
    const text = JSON.stringify(answer);
    for (const word of ['spread-', 's-', 'Bob', 'Cleo', 'Ana']) expect(text).not.toContain(word);
  });
});

describe('one number over the class', () => {
  const run = fc.record({
    owner: fc.constantFrom('s-aaaaaaaaaaaa', 's-bbbbbbbbbbbb', 's-cccccccccccc', 's-dddddddddddd'),
    value: fc.option(fc.double({ min: 1, max: 1e9, noNaN: true }), { nil: null }),
    atMost: fc.option(fc.constant(100), { nil: null }),
    above: fc.option(fc.constant(1e8), { nil: null }),
  });

  it('holds the values of the runs that have one, in order, each student counted once, and the runs beyond the sizes apart', () => {
    fc.assert(
      fc.property(fc.array(run, { maxLength: 40 }), (runs) => {
        const summaries = runs.map((r) => ({
          owner: r.owner,
          summary: { 'add.gpu-transfers.breakEvenSize': r.value, 'add.gpu-transfers.breakEvenAtMost': r.atMost, 'add.gpu-transfers.breakEvenAbove': r.above },
        }));
        const m = metricOf('add.gpu-transfers.breakEvenSize', summaries);
        const beyond = runs.filter((r) => r.atMost !== null || r.above !== null);
        const valued = runs.filter((r) => r.atMost === null && r.above === null && r.value !== null);
        expect(m.outsideSizes).toBe(beyond.length);
        expect(m.runs).toBe(valued.length);
        expect(m.students).toBe(new Set(valued.map((r) => r.owner)).size);
        const values = valued.map((r) => r.value ?? 0).sort((a, b) => a - b);
        expect(m.min).toBe(values[0] ?? null);
        expect(m.max).toBe(values.at(-1) ?? null);
        if (m.median !== null && m.min !== null && m.max !== null) {
          expect(m.min).toBeLessThanOrEqual(m.median);
          expect(m.median).toBeLessThanOrEqual(m.max);
          // Half the values at most on either side of the median.
          expect(values.filter((v) => v < (m.median ?? 0)).length).toBeLessThanOrEqual(values.length / 2);
          expect(values.filter((v) => v > (m.median ?? 0)).length).toBeLessThanOrEqual(values.length / 2);
        } else expect(values).toEqual([]);
      }),
    );
  });
});
