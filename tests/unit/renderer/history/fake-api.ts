// The renderer's API at its boundary (renderer/api/index.ts), faked for the history's tests: the runs service as mock
// functions whose events a test emits, a transport that stays open, the error helpers as they are. Each test file
// mocks the module with `apiModule`.
import { vi } from 'vitest';

import type { ClassSession, QueueView } from '../../../../main/common/contract/classroom.ts';
import type { ExportedRun, ExportFormat, RunEvent, RunProgress } from '../../../../main/common/contract/runs.ts';
import type { LabsReportContents, LabsReportRequest, ReportFile } from '../../../../main/common/contract/reports.ts';
import type { LabDescriptor } from '../../../../main/common/lab-descriptor.ts';
import type { LabTimeBound } from '../../../../main/common/contract/labs.ts';
import { labDescriptors } from '../../../../main/labs/index.ts';
import type { RunRecord, RunSummary } from '../../../../main/common/run-record.ts';
import { ApiError, errorText } from '../../../../renderer/api/api-error.ts';
import type { ConnectionState, Transport } from '../../../../renderer/api/transport.ts';

const runListeners = new Set<(e: RunEvent) => void>();

export const runsApi = {
  listRuns: vi.fn<() => Promise<RunSummary[]>>(),
  getRun: vi.fn<(runId: string) => Promise<RunRecord>>(),
  getRunProgress: vi.fn<(runId: string) => Promise<RunProgress | null>>(),
  deleteRun: vi.fn<(runId: string) => Promise<void>>(),
  exportRun: vi.fn<(runId: string, format: ExportFormat) => Promise<ExportedRun>>(),
  onDidChangeRun: (listener: (e: RunEvent) => void) => {
    runListeners.add(listener);
    return { dispose: () => runListeners.delete(listener) };
  },
};

// The report of every lab, whose panel sits under the history's table: main's choice of runs, and the PDF.
export const reportsApi = {
  labsReportContents: vi.fn<(device: string) => Promise<LabsReportContents>>(async (device) => ({ device, runs: [], missing: [] })),
  writeLabsReport: vi.fn<(request: LabsReportRequest) => Promise<ReportFile>>(),
};

// The labs as main describes them in English: the panel names each lab.
export const labsApi = {
  listLabs: vi.fn<() => Promise<LabDescriptor[]>>(async () => labDescriptors('en')),
  timeBounds: vi.fn<(device: string) => Promise<LabTimeBound[]>>(async () => []),
};

// Who the page is: alone with the machine, as the desktop app and serve without a class are (History offers Import).
export const classroomApi = {
  session: vi.fn<() => Promise<ClassSession>>(async () => ({ role: 'solo', className: null, name: null, caps: null })),
  queue: vi.fn<() => Promise<QueueView>>(async () => ({ entries: [], devices: [], busyWithOtherProgram: [] })),
  onDidChangeQueue: () => ({ dispose: () => undefined }),
};

// An event as main would send it, to every page that listens.
export function emitRunEvent(event: RunEvent): void {
  for (const l of runListeners) l(event);
}

export function listenerCount(): number {
  return runListeners.size;
}

const transport: Transport = {
  call: () => Promise.reject(new Error('the history tests reach main only through the faked api')),
  on: () => () => undefined,
  state: 'open' as ConnectionState,
  onState: () => () => undefined,
};

export function apiModule() {
  // desktop: null, as in a browser (serve mode): the desktop app's own methods are the devices tests' concern.
  return { api: { runs: runsApi, reports: reportsApi, labs: labsApi, classroom: classroomApi }, transport, desktop: null, ApiError, errorText };
}
