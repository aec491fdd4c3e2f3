// A stored point's counted work and peak as this version counts them, for a record of an older schema version as it
// is read (stored-record.ts): a record measured before a count or a peak was corrected (the vector function's three
// passes counted at 24 B an element; the H100's DGEMM read against its FP64 lanes when cuBLAS used the fp64 tensor
// cores) reads with today's, and its rates are the corrected work ÷ the same median. The samples are the record's;
// only the arithmetic on them changes. A point the current plan does not make (a lab or parameters this version no
// longer plans) keeps what it recorded. A point recorded before points had names (messages) gets the name of the
// planned point it is, where the recorded English label is the planned one's, so that it reads in the reader's
// language; one whose clock version 1 could not tell (the host's, with no device times: a Python peer's clock stopped
// at the launch kept none) gets the plan's.
import type { DeviceSummary } from '../common/devices.ts';
import { validateParams } from '../common/params.ts';
import type { PointResult, RunRecord } from '../common/run-record.ts';
import type { Lab, PlanContext, PlannedPoint } from '../labs/lab.ts';

// The same English label, whether its numbers were written with thousands separators (as they are since sizes are
// grouped: "N = 1,500") or without (as older records have them: "N = 1500").
const ungrouped = (label: string): string => label.replace(/(\d),(?=\d{3}\b)/g, '$1');

function recounted(stored: PointResult, planned: PlannedPoint | undefined): PointResult {
  const named = !stored.name && planned && ungrouped(planned.label) === ungrouped(stored.label) ? { ...stored, name: planned.name } : stored;
  const p = named.clock === 'host' && planned?.clock === 'host-nosync' ? { ...named, clock: planned.clock } : named;
  if (!planned?.measurement || p.device !== planned.device) return p;
  const work = planned.work;
  const median = p.stats?.median ?? 0;
  // GFLOP/s = FLOPs / (ms · 10⁶); GB/s = bytes / (ms · 10⁶), as the runner computes them (runs/point-result.ts): none
  // for a time that is not the work's alone, whatever an older version recorded.
  const perMs = p.status === 'ok' && median > 0 && !planned.unrated ? 1 / (median * 1e6) : 0;
  return {
    ...p,
    work,
    gflops: perMs > 0 && work.flops > 0 ? work.flops * perMs : p.status === 'ok' ? null : p.gflops,
    gbps: perMs > 0 && work.bytes > 0 ? work.bytes * perMs : p.status === 'ok' ? null : p.gbps,
    ...(p.peak !== undefined || planned.peak !== undefined ? { peak: planned.peak ?? null } : {}),
  };
}

// The Python peers a record asked for, as a plan to recount them needs them: each library counted as found and working,
// so that every peer point is planned with its measurement (its work, its peak, whether its time has a rate); which
// ones ran, and how, is the record's.
function recordedPeers(record: RunRecord): PlanContext['peers'] {
  const asked = record.peers ?? [];
  if (asked.length === 0) return undefined;
  const libraries = Object.fromEntries(asked.map((library) => [library, { found: true as const, version: 'recorded', cudaAvailable: true }]));
  return { asked, report: { interpreter: 'recorded', available: true, probe: { python: 'recorded', executable: 'recorded', libraries } } };
}

export function withCurrentWork(record: RunRecord, lab: Lab, cpu: DeviceSummary | null, gpu: DeviceSummary | null): RunRecord {
  if (!cpu) return record;
  let plan: PlannedPoint[];
  try {
    const params = validateParams(lab.descriptor.id, lab.descriptor.parameters, record.params);
    const cores = cpu.details.logicalCores;
    const peers = recordedPeers(record);
    plan = lab.plan(params, { cpu, cpuThreads: typeof cores === 'number' ? cores : 1, gpu, gpuWaivedReason: '', gpuWaivedWhy: null, ...(peers ? { peers } : {}) });
  } catch {
    return record;
  }
  const byKey = new Map(plan.map((p) => [p.key, p]));
  return { ...record, points: record.points.map((p) => recounted(p, byKey.get(p.key))) };
}
