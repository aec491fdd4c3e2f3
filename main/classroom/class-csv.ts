// The class as a CSV for the teacher's own spreadsheet: one row per finished run of a student, oldest first, with who
// ran it, the lab, the device, when, its status, its parameters and its headline findings (common/pure/finding-order.ts,
// headlineIds), each as its value, the interval it lies in, its unit and, for the run the class's table shows, where
// it lies against the class's range ("above", "below", "within"; empty where it is not judged). Students' names are
// anyone's input: every cell goes through the one CSV writer, which keeps a formula from running (common/csv.ts).
import type { ClassOverview } from '../common/contract/classroom.ts';
import type { ExportedRun } from '../common/contract/runs.ts';
import { csvTable } from '../common/csv.ts';
import type { CsvValue } from '../common/csv.ts';
import { safeFileName } from '../common/pure/file-name.ts';
import { headlineIds } from '../common/pure/finding-order.ts';
import { LABS, findLab } from '../labs/index.ts';
import type { ClassRun } from './class-overview.ts';

// A slot for each headline finding a lab's run can have.
const SLOTS = Math.max(1, ...LABS.map((l) => l.descriptor.headline.length));

const COLUMNS = [
  'student',
  'student_id',
  'removed',
  'lab',
  'device',
  'run_id',
  'created_at',
  'finished_at',
  'status',
  'params',
  ...Array.from({ length: SLOTS }, (_, i) => [`headline_${i + 1}`, `value_${i + 1}`, `low_${i + 1}`, `high_${i + 1}`, `unit_${i + 1}`, `against_class_${i + 1}`]).flat(),
];

// Where each headline finding of the runs the class's table shows lies against the class: run id → finding id → word.
function placements(overview: ClassOverview): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const lab of overview.labs) {
    for (const setup of lab.setups) {
      for (const row of setup.rows) {
        const judged = new Map<string, string>();
        row.numbers.forEach((n, i) => {
          const id = setup.columns[i]?.id;
          if (n?.against && id) judged.set(id, n.against);
        });
        out.set(row.runId, judged);
      }
    }
  }
  return out;
}

export function classCsv(runs: readonly ClassRun[], overview: ClassOverview, date: Date = new Date()): ExportedRun {
  const against = placements(overview);
  const rows = runs.map((r): CsvValue[] => {
    const ids = r.status === 'completed' ? headlineIds(r.findings, findLab(r.lab)?.descriptor.headline ?? []) : [];
    const slots = Array.from({ length: SLOTS }, (_, i): CsvValue[] => {
      const f = r.findings.find((x) => x.id === ids[i]);
      if (!f) return ['', null, null, null, '', ''];
      return [f.id, f.value, f.interval?.low ?? null, f.interval?.high ?? null, f.unit, against.get(r.id)?.get(f.id) ?? ''];
    });
    const student = [r.student.name, r.student.id, r.student.removedAt !== null];
    return [...student, r.lab, r.device, r.id, r.createdAt, r.finishedAt, r.status, JSON.stringify(r.params), ...slots.flat()];
  });
  const filename = safeFileName(`GPU Lab – ${overview.className} – ${date.toISOString().slice(0, 10)}`, 'csv');
  return { filename, mimeType: 'text/csv', text: csvTable(COLUMNS, rows) };
}
