// `gpu-lab runs export ID --reference`: a run's headline numbers as a reference result (main/common/reference-run.ts),
// the form of the table GPU Lab ships, so that a teacher can add their cluster's GPU models: the file goes in a data
// folder's references/, where the app and the PDF show it beside other runs of the lab as another machine's.
import { referenceOf } from '../common/pure/charts/headlines.ts';
import type { ExportedRun } from '../common/contract/runs.ts';
import { GpuLabError } from '../common/errors.ts';
import type { RunRecord } from '../common/run-record.ts';
import { findLab } from '../labs/index.ts';

export function exportReference(record: RunRecord): ExportedRun {
  const lab = findLab(record.lab);
  if (!lab) throw new GpuLabError('INVALID_ARGUMENT', `Run ${record.id} is of the lab ${record.lab}, which this GPU Lab does not know: it makes no reference`, { runId: record.id, lab: record.lab });
  if (record.status !== 'completed') throw new GpuLabError('INVALID_ARGUMENT', `Run ${record.id} is ${record.status}: only a completed run makes a reference`, { runId: record.id, status: record.status });
  const reference = referenceOf(record, lab.descriptor);
  if (reference.points.length === 0) throw new GpuLabError('INVALID_ARGUMENT', `Run ${record.id} has no measured point to make a reference of`, { runId: record.id });
  return { filename: `${record.id}-reference.json`, mimeType: 'application/json', text: `${JSON.stringify(reference, null, 2)}\n` };
}
