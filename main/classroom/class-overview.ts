// The class as its teacher reads it: for each lab, each student's latest run of each setup (the device and the
// parameters: a break-even found on other sizes is not the same number) with the lab's headline findings, exactly as
// the run's own page reads them (the record's findings, derived again by the lab's analysis when read), each placed
// against the class's range for it only as far as its interval allows (common/pure/claims.ts); and who has not run the
// lab yet. The app's view, the class's CSV and its PDF are all made from this.
import { classRange, placeAgainst } from '../common/pure/claims.ts';
import { MAX_SETUPS_A_STUDENT } from '../common/pure/class-text.ts';
import type { ClassCaps, ClassLab, ClassNumber, ClassOverview, ClassRow, ClassSetup, ClassStudent } from '../common/contract/classroom.ts';
import { headlineIds } from '../common/pure/finding-order.ts';
import { LAB_IDS } from '../common/lab-descriptor.ts';
import type { ParamValues } from '../common/lab-descriptor.ts';
import type { Finding, RunRecord, RunStatus, RunSummary } from '../common/run-record.ts';
import { findLab } from '../labs/index.ts';
import { sameParams } from './class-distribution.ts';
import type { StoredStudent } from './class-store.ts';

export interface ClassSources {
  name: string;
  caps: ClassCaps;
  roster: ClassStudent[];
  // Every student who joined, the removed ones included (their runs stay the teacher's to read).
  everyone: readonly StoredStudent[];
  ownerOf(runId: string): string | null;
  listRuns(): Promise<RunSummary[]>;
  getRun(id: string): Promise<RunRecord>;
}

// A finished run of a student, with what the overview reads of its record.
export interface ClassRun {
  id: string;
  lab: string;
  device: string;
  status: RunStatus;
  createdAt: string;
  finishedAt: string | null;
  student: StoredStudent;
  params: ParamValues;
  findings: Finding[];
}

const FINISHED = new Set<RunStatus>(['completed', 'waived', 'cancelled', 'failed']);

// What a finished record gives the overview never changes: it is read once, and again only if it was written again.
export class ClassRunReader {
  private readonly cache = new Map<string, { finishedAt: string | null; params: ParamValues; findings: Finding[] }>();

  // The students' finished runs, oldest first; a record that cannot be read is left out, as the history leaves it.
  async runs(sources: ClassSources): Promise<ClassRun[]> {
    const students = new Map(sources.everyone.map((s) => [s.id, s]));
    const out: ClassRun[] = [];
    const listed = (await sources.listRuns()).filter((s) => FINISHED.has(s.status)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const seen = new Set<string>();
    for (const summary of listed) {
      const owner = sources.ownerOf(summary.id);
      const student = owner === null ? undefined : students.get(owner);
      if (!student) continue;
      seen.add(summary.id);
      let read = this.cache.get(summary.id);
      if (!read || read.finishedAt !== summary.finishedAt) {
        const record = await sources.getRun(summary.id).catch(() => null);
        if (!record) continue;
        read = { finishedAt: record.finishedAt, params: record.params, findings: record.findings };
        this.cache.set(summary.id, read);
      }
      const { id, lab, device, status, createdAt, finishedAt } = summary;
      out.push({ id, lab, device, status, createdAt, finishedAt, student, params: read.params, findings: read.findings });
    }
    for (const id of this.cache.keys()) if (!seen.has(id)) this.cache.delete(id);
    return out;
  }
}

interface Setup {
  device: string;
  params: ParamValues;
  rows: ClassRun[];
}

// Each student's runs of one lab as the table shows them: the latest completed run of each setup they completed (of
// their MAX_SETUPS_A_STUDENT latest setups); a student who completed none, their latest finished run (failed,
// cancelled, waived), with its status. `earlier`: the completed runs of the older setups left out.
function chosenRuns(runs: readonly ClassRun[]): { chosen: ClassRun[]; earlier: number } {
  const byStudent = new Map<string, ClassRun[]>();
  for (const r of runs) byStudent.set(r.student.id, [...(byStudent.get(r.student.id) ?? []), r]);
  const chosen: ClassRun[] = [];
  let earlier = 0;
  for (const own of byStudent.values()) {
    const completed = own.filter((r) => r.status === 'completed');
    if (completed.length === 0) {
      const last = own.at(-1);
      if (last) chosen.push(last);
      continue;
    }
    const latest: ClassRun[] = [];
    for (const r of completed) {
      const at = latest.findIndex((x) => x.device === r.device && sameParams(x.params, r.params));
      if (at >= 0) latest.splice(at, 1);
      latest.push(r);
    }
    const kept = latest.slice(-MAX_SETUPS_A_STUDENT);
    earlier += completed.filter((r) => !kept.some((k) => k.device === r.device && sameParams(k.params, r.params))).length;
    chosen.push(...kept);
  }
  return { chosen, earlier };
}

function setupsOf(runs: readonly ClassRun[]): Setup[] {
  const setups: Setup[] = [];
  for (const r of runs) {
    const setup = setups.find((s) => s.device === r.device && sameParams(s.params, r.params));
    if (setup) setup.rows.push(r);
    else setups.push({ device: r.device, params: r.params, rows: [r] });
  }
  // The setup most of the class ran first.
  return setups.sort((a, b) => b.rows.length - a.rows.length || a.device.localeCompare(b.device));
}

function byName(a: ClassRun, b: ClassRun): number {
  return a.student.name.localeCompare(b.student.name) || a.createdAt.localeCompare(b.createdAt);
}

// The columns of a setup: the lab's headline ids its completed runs have, in the lab's order, then any run's own
// headline where it has none of them.
function columnsOf(rows: readonly ClassRun[], headline: readonly string[]): string[] {
  const ids: string[] = [];
  for (const r of rows) if (r.status === 'completed') for (const id of headlineIds(r.findings, headline)) if (!ids.includes(id)) ids.push(id);
  const order = (id: string): number => (headline.includes(id) ? headline.indexOf(id) : headline.length);
  return ids.sort((a, b) => order(a) - order(b));
}

function setupView(setup: Setup, headline: readonly string[]): ClassSetup {
  const rows = [...setup.rows].sort(byName);
  const ids = columnsOf(rows, headline);
  const found = (r: ClassRun, id: string): Finding | undefined => (r.status === 'completed' ? r.findings.find((f) => f.id === id) : undefined);
  const columns = ids.map((id) => {
    // One value a student: a setup holds each student's latest completed run once.
    const values = rows.flatMap((r) => {
      const v = found(r, id)?.value;
      return typeof v === 'number' ? [v] : [];
    });
    return { id, range: classRange(values) };
  });
  const rowViews: ClassRow[] = rows.map((r) => ({
    studentId: r.student.id,
    student: r.student.name,
    removed: r.student.removedAt !== null,
    runId: r.id,
    createdAt: r.createdAt,
    status: r.status,
    numbers: columns.map(({ id, range }): ClassNumber | null => {
      const finding = found(r, id);
      if (!finding) return null;
      const { value, interval } = finding;
      // Judged only with a value, its interval and a range: never from a median alone.
      if (value === null || !interval || !range) return { finding, against: null };
      return { finding, against: placeAgainst({ value, ...interval }, range) };
    }),
  }));
  return { device: setup.device, params: setup.params, columns, rows: rowViews };
}

export function labOverview(lab: string, runs: readonly ClassRun[], roster: readonly ClassStudent[]): ClassLab {
  const headline = findLab(lab)?.descriptor.headline ?? [];
  const ofLab = runs.filter((r) => r.lab === lab);
  const ran = new Set(ofLab.map((r) => r.student.id));
  const { chosen, earlier } = chosenRuns(ofLab);
  return {
    lab,
    setups: setupsOf(chosen).map((s) => setupView(s, headline)),
    notRun: roster.filter((s) => !ran.has(s.id)).map((s) => ({ id: s.id, name: s.name })),
    earlier,
  };
}

export function classOverview(sources: Pick<ClassSources, 'name' | 'caps' | 'roster'>, runs: readonly ClassRun[]): ClassOverview {
  return { className: sources.name, caps: sources.caps, students: sources.roster, labs: LAB_IDS.map((lab) => labOverview(lab, runs, sources.roster)) };
}
