// The reports service of the contract: the PDF of one run, or of two compared, and of kernel playground runs after
// them or alone, as bytes for the app to hand to the browser as a download (Electron shows its save dialog for it);
// main writes no file. And the lookup the command line shares with it: a stored run by id, with a clear refusal for
// a run that is gone, still running, or written by an older schema (which the run store skips as unreadable).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { compareDevices, runPerDevice } from '../common/pure/charts/device-comparison.ts';
import type { ReferenceResult } from '../common/contract/labs.ts';
import type { DevicesComparison, DevicesReportRequest, LabsReportContents, LabsReportRequest, ReportFile, ReportRequest, ReportsService } from '../common/contract/reports.ts';
import { GpuLabError } from '../common/errors.ts';
import { LAB_IDS } from '../common/lab-descriptor.ts';
import type { LabId } from '../common/lab-descriptor.ts';
import { findLab } from '../labs/index.ts';
import { DEVICE_ID } from '../common/measurement.ts';
import type { KernelRun } from '../common/playground.ts';
import type { RunRecord, RunSummary } from '../common/run-record.ts';
import { checkAuthorship, checkLocale, checkRecord, checkReportContents, refuse } from './report-input.ts';

export interface ReportSources {
  getRun(runId: string): Promise<RunRecord>;
  // A stored kernel playground run, for reports that hold some.
  getKernelRun?(id: string): Promise<KernelRun>;
  // The stored runs, newest or not, for the report of every lab; a service without it writes none.
  listRuns?(): Promise<RunSummary[]>;
  // The folder of the stored records, where an unreadable one is looked at to say why.
  runsDir: string;
  writerVersion: string;
  sourceRoots?: string[];
  // Other machines' results of a lab, shown beside a run in its report; the shipped table's where absent.
  references?(lab: string): Promise<ReferenceResult[]>;
}

// The record of a run, as a report may use it: an unreadable file is looked at once more, so that a record of
// another schema version is refused as that, not as a run that does not exist.
export async function reportableRun(sources: ReportSources, runId: string): Promise<RunRecord> {
  try {
    return checkRecord(await sources.getRun(runId)).record;
  } catch (err) {
    // Only a run id is looked for, never a path: letters, digits, '.', '_' and '-', as the store names its files.
    if (!(err instanceof GpuLabError) || err.code !== 'NOT_FOUND' || !/^[A-Za-z0-9._-]{1,120}$/.test(runId)) throw err;
    const text = await readFile(join(sources.runsDir, `${runId}.json`), 'utf8').catch(() => null);
    let stored: unknown = null;
    try {
      stored = text === null ? null : JSON.parse(text);
    } catch {
      // Not JSON: the store's own NOT_FOUND says it is unreadable.
    }
    if (stored !== null && typeof stored === 'object') checkRecord(stored);
    throw err;
  }
}

// The earlier runs of a lab read for a break-even's spread: enough that, among those with the same parameters, two
// may be found (three runs in all, break-even-spread.ts); no more, however many the store keeps.
const SPREAD_RUNS_MAX = 4;

const FINISHED = new Set<RunSummary['status']>(['completed', 'waived', 'cancelled', 'failed']);
export const isFinished = (s: RunSummary): boolean => FINISHED.has(s.status);

// The newest finished run of each lab on `device`, a completed one before one that was cancelled or failed, in the
// app's order of labs; and the labs with none.
export function labsReportChoice(summaries: readonly RunSummary[], device: string): LabsReportContents {
  const runs: RunSummary[] = [];
  const missing: string[] = [];
  for (const lab of LAB_IDS) {
    const finished = summaries.filter((s) => s.lab === lab && s.device === device && isFinished(s)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const chosen = finished.find((s) => s.status === 'completed') ?? finished[0];
    if (chosen) runs.push(chosen);
    else missing.push(lab);
  }
  return { device, runs, missing };
}

// The device a labs report is asked for, checked like every other field: named, with the value and what is expected.
function checkDevice(device: unknown): string {
  const parsed = DEVICE_ID.safeParse(device);
  if (!parsed.success) {
    throw refuse('INVALID_ARGUMENT', 'device-unknown', `The device of a labs report must be "cpu" or "cuda:N", not ${JSON.stringify(device)}`, { field: 'device', value: String(device) });
  }
  return parsed.data;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

// A stored kernel run, as a report may use it. The store's own NOT_FOUND names the id; a service built without a
// kernel store has none to give.
export async function reportableKernelRun(sources: ReportSources, id: string): Promise<KernelRun> {
  if (!sources.getKernelRun) throw new GpuLabError('NOT_FOUND', `There is no kernel run ${id}: this GPU Lab keeps no kernel runs`, { id });
  return sources.getKernelRun(id);
}

// The run of `lab` shown for each device that has one (device-comparison.ts runPerDevice), read whole: which device
// a run measured is in its record, not its summary. A record that cannot be read is left out, as the list leaves it.
export async function runsPerDevice(sources: ReportSources, lab: string): Promise<RunRecord[]> {
  if (!sources.listRuns) throw new GpuLabError('NOT_FOUND', 'This GPU Lab keeps no runs to report', { lab });
  const finished = (await sources.listRuns()).filter((s) => s.lab === lab && isFinished(s));
  const records = await Promise.all(finished.map((s) => reportableRun(sources, s.id).catch(() => null)));
  return runPerDevice(records.filter((r): r is RunRecord => r !== null));
}

export async function devicesComparison(sources: ReportSources, lab: LabId): Promise<DevicesComparison> {
  const known = findLab(lab);
  if (!known) throw new GpuLabError('NOT_FOUND', `There is no lab ${lab}`, { lab });
  return compareDevices(await runsPerDevice(sources, lab), known.descriptor);
}

export function createReportsService(sources: ReportSources): ReportsService {
  const contents = async (device: string): Promise<LabsReportContents> => {
    if (!sources.listRuns) throw new GpuLabError('NOT_FOUND', 'This GPU Lab keeps no runs to report', { device });
    return labsReportChoice(await sources.listRuns(), device);
  };
  const referencesOf = async (labs: readonly string[]): Promise<ReferenceResult[] | undefined> =>
    sources.references ? (await Promise.all([...new Set(labs)].map((lab) => sources.references?.(lab) ?? []))).flat() : undefined;
  return {
    compareDevices: (lab) => devicesComparison(sources, lab),
    async writeDevicesReport(request: DevicesReportRequest): Promise<ReportFile> {
      const authorship = checkAuthorship(request);
      const locale = checkLocale(request.locale);
      const labs = request.labs ?? [...LAB_IDS];
      const compared = (await Promise.all(labs.map((lab) => devicesComparison(sources, lab)))).filter((c) => c.columns.length > 0);
      if (compared.length === 0) {
        throw refuse('NOT_FOUND', 'nothing-to-report', `No run of ${labs.join(', ')} has finished in ${sources.runsDir}: run one first`, { labs });
      }
      const { writeDevicesReport } = await import('./report-writer.ts');
      const pdf = await writeDevicesReport(compared, { ...authorship, locale, writerVersion: sources.writerVersion });
      return { filename: pdf.filename, mimeType: 'application/pdf', base64: base64(pdf.bytes), pages: pdf.pages };
    },
    labsReportContents: async (device) => contents(checkDevice(device)),
    async writeLabsReport(request: LabsReportRequest): Promise<ReportFile> {
      const authorship = checkAuthorship(request);
      const locale = checkLocale(request.locale);
      const device = checkDevice(request.device);
      const chosen = await contents(device);
      if (chosen.runs.length === 0) {
        throw refuse('NOT_FOUND', 'nothing-to-report', `No lab has a finished run on ${device} in ${sources.runsDir}: run one first`, { device });
      }
      const runs = await Promise.all(chosen.runs.map((s) => reportableRun(sources, s.id)));
      // The earlier completed runs of the chosen ones' labs on this device, where a break-even's spread over three runs
      // can be given: the writer keeps those made with the same parameters (report-writer.ts, chapterOf). One that
      // cannot be read is left out.
      const earlier = (await sources.listRuns?.()) ?? [];
      const extra = chosen.runs.flatMap((c) => earlier.filter((s) => s.lab === c.lab && s.device === device && s.status === 'completed' && s.id !== c.id && s.createdAt < c.createdAt).sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, SPREAD_RUNS_MAX));
      const repeats = (await Promise.allSettled(extra.map((s) => reportableRun(sources, s.id)))).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const { writeLabsReport } = await import('./report-writer.ts');
      const references = await referencesOf(runs.map((r) => r.lab));
      const pdf = await writeLabsReport([...runs, ...repeats], device, { ...authorship, locale, writerVersion: sources.writerVersion, sourceRoots: sources.sourceRoots, ...(references ? { references } : {}) });
      return { filename: pdf.filename, mimeType: 'application/pdf', base64: base64(pdf.bytes), pages: pdf.pages };
    },
    async writeReport(request: ReportRequest): Promise<ReportFile> {
      // The fields first: a refused author or language must not cost the reading of two runs.
      const authorship = checkAuthorship(request);
      const locale = checkLocale(request.locale);
      const kernelRunIds = request.kernelRunIds ?? [];
      checkReportContents(request.runIds, kernelRunIds);
      const runs = await Promise.all(request.runIds.map((id) => reportableRun(sources, id)));
      const kernelRuns = await Promise.all(kernelRunIds.map((id) => reportableKernelRun(sources, id)));
      const references = await referencesOf(runs.map((r) => r.lab));
      const options = { ...authorship, locale, writerVersion: sources.writerVersion, sourceRoots: sources.sourceRoots, ...(references ? { references } : {}) };
      // Loaded on the first report: the PDF library, the canvas and Chart.js cost every shell half a second at start.
      const { writeReport } = await import('./report-writer.ts');
      const pdf = await writeReport(runs, kernelRuns, options);
      return { filename: pdf.filename, mimeType: 'application/pdf', base64: base64(pdf.bytes), pages: pdf.pages };
    },
  };
}
