// A class in a data folder, as `gpu-lab serve --classroom` leaves it: students who joined (class.json) and their runs,
// each a recorded run (tests/fixtures/runs/) whose samples are scaled for that student, so that the class's numbers
// spread as a real class's do, and one student's can lie far from the rest.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ClassStore } from '../../../main/classroom/class-store.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/runs/', import.meta.url));

export interface ClassStudentRun {
  name: string;
  // The recorded run it is made from (a file of tests/fixtures/runs/).
  fixture: string;
  // Each point's samples times this factor, by series: a student's slower GPU, a faster CPU.
  scale?: Record<string, number>;
  status?: RunRecord['status'];
}

export interface ClassFolder {
  dataDir: string;
  students: { id: string; name: string; token: string }[];
  // The run ids in the order given.
  runIds: string[];
}

export function recorded(fixture: string): RunRecord {
  return JSON.parse(readFileSync(join(FIXTURES, fixture), 'utf8')) as RunRecord;
}

// The students join in the order of their first run; a name given twice is one student with two runs.
export async function classFolder(runs: readonly ClassStudentRun[], options: { name?: string; dataDir?: string } = {}): Promise<ClassFolder> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gpu-lab-class-folder-'));
  mkdirSync(join(dataDir, 'runs'), { recursive: true });
  const store = await ClassStore.open(dataDir, options.name ?? 'HPC 2026');
  const students = new Map<string, { id: string; name: string; token: string }>();
  const runIds: string[] = [];
  for (const [i, r] of runs.entries()) {
    let s = students.get(r.name);
    if (!s) {
      const joined = await store.join(r.name);
      s = { id: joined.student.id, name: joined.student.name, token: joined.token };
      students.set(r.name, s);
    }
    const source = recorded(r.fixture);
    const id = `class-${String(i).padStart(3, '0')}-${source.lab}`;
    // A minute apart, in the order given: the latest of a student's runs is the last one given.
    const at = new Date(Date.UTC(2026, 10, 23, 8, i)).toISOString();
    const points = source.points.map((p) => {
      const k = r.scale?.[p.series] ?? 1;
      return k === 1 ? p : { ...p, hostMs: p.hostMs.map((v) => v * k), deviceMs: p.deviceMs?.map((v) => v * k) ?? null };
    });
    const record: RunRecord = { ...source, id, createdAt: at, finishedAt: at, status: r.status ?? source.status, points };
    writeFileSync(join(dataDir, 'runs', `${id}.json`), JSON.stringify(record));
    await store.own('runs', id, s.id);
    runIds.push(id);
  }
  return { dataDir, students: [...students.values()], runIds };
}
