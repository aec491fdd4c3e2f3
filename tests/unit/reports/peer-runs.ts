// Generated runs for the property tests of what the course deliverables and the labs' findings read against (DESIGN
// §10, "Baselines"): a lab planned with the course's Python peers asked or not, the course's own series measured,
// waived (its library missing), failed, left out by --peers none or left out of a --peers list, every other point
// measured around a chosen median.
import type { Translate } from '../../../main/common/pure/charts/text.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { validateParams } from '../../../main/common/params.ts';
import type { PeerLibrary, PeersReport } from '../../../main/common/peer-protocol.ts';
import type { PointResult, RunRecord } from '../../../main/common/run-record.ts';
import { pointReason } from '../../../main/common/pure/i18n/error-text.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Lab, PlannedPoint } from '../../../main/labs/lab.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';
import { failedPoint, waivedPoint } from '../../../main/runs/point-result.ts';
import { CPU, GPU, sampledPoint, WITH_GPU } from '../labs/synthetic.ts';

export const LIBRARIES: PeerLibrary[] = ['numpy', 'torch', 'cupy', 'numba'];
export const NAMES: Record<PeerLibrary, string> = { numpy: 'NumPy', torch: 'PyTorch', cupy: 'CuPy', numba: 'Numba', transformers: 'Transformers', pycuda: 'PyCUDA', 'cuda-core': 'cuda.core' };
// What became of the course's baseline series in a run.
export const STATES = ['ran', 'waived', 'failed', 'noPeers', 'notAsked'] as const;
export type State = (typeof STATES)[number];

export function lab(id: string): Lab {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

// The interpreter's report: every library there with CUDA, but `missing` not installed.
function report(missing: PeerLibrary | null): PeersReport {
  const libraries = Object.fromEntries(
    LIBRARIES.map((l) => [l, l === missing ? { found: false as const, kind: 'missing' as const, error: `No module named '${l}'`, reason: `not installed for this interpreter (No module named '${l}')` } : { found: true as const, version: '1.0', cudaAvailable: true, devices: ['GPU'] }]),
  );
  return { interpreter: 'python3', available: true, probe: { python: '3.12.3', executable: '/usr/bin/python3', libraries } };
}

// A run of `id` in which the course's baseline series (`course`, of `library`: one, or one per operation) came to
// `state`, every other point measured around the median `ms` gives it, six samples spread by `shape`.
export function runOf(id: string, params: Record<string, unknown>, state: State, library: PeerLibrary, course: string | readonly string[], ms: (p: PlannedPoint) => number, shape: number[]): RunRecord {
  const l = lab(id);
  const values = validateParams(id, l.descriptor.parameters, params);
  const asked = state === 'noPeers' ? [] : state === 'notAsked' ? LIBRARIES.filter((x) => x !== library) : LIBRARIES;
  const peers = asked.length > 0 ? { asked, report: report(state === 'waived' ? library : null) } : undefined;
  const planned = l.plan(values, { ...WITH_GPU, ...(peers ? { peers } : {}) });
  const points = planned.map((p) => {
    if (!p.measurement) return waivedPoint(p);
    if (state === 'failed' && [course].flat().includes(p.series)) return failedPoint(p, { code: 'PEER_FAILED', message: 'CUDA out of memory' });
    return sampledPoint(p, shape.map((s) => s * ms(p)), 16);
  });
  const analysis = l.analyze(points, values, GPU, CPU);
  return { lab: id, params: values, points, summary: analysis.summary, findings: analysis.findings, peers: asked, environment: { devices: null, versions: {}, hostPid: null }, warnings: [] } as unknown as RunRecord;
}

export const point = (r: RunRecord, key: string, x: number | null = null): PointResult | undefined => r.points.find((p) => p.series === key && (x === null || p.x === x));
export const median = (p: PointResult | undefined): number => p?.stats?.median ?? Number.NaN;

// The reason the course's series gave no figure, as the run itself has it: the waiver's words, the failure's, or what
// the run asked the Python peers for.
export function expectedWhy(r: RunRecord, state: State, library: PeerLibrary, course: string, t: Translate, locale: Locale): string {
  if (state === 'waived' || state === 'failed') {
    const p = point(r, course);
    if (!p) throw new Error(`no point of ${course}`);
    return inReportLocale(locale, () => pointReason(p, t));
  }
  if (state === 'noPeers') return '--peers none';
  return t('pdf.deliverable.against.why.notAsked', { library: NAMES[library], asked: LIBRARIES.filter((x) => x !== library).map((x) => NAMES[x]).join(', ') });
}
