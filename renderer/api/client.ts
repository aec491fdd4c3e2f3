// The contract (GpuLabApi) over any transport: one typed function per method, answers unwrapped into values or
// ApiErrors, events as subscriptions.
import type { ApiMethod, ApiResponse } from '../../main/common/api-methods.ts';
import type { GpuLabApi, RunEvent } from '../../main/common/contract.ts';
import { ApiError } from './api-error.ts';
import type { Transport } from './transport.ts';

function unwrap<T>(response: ApiResponse): T {
  if (response.ok) return response.value as T;
  throw new ApiError(response.error);
}

export function createApiClient(transport: Transport): GpuLabApi {
  const call = <T>(method: ApiMethod, ...args: unknown[]): Promise<T> => transport.call(method, args).then((r) => unwrap<T>(r));
  return {
    devices: {
      listDevices: () => call('devices.listDevices'),
      inspectDevices: () => call('devices.inspectDevices'),
      readTelemetry: (device) => call('devices.readTelemetry', device),
    },
    labs: {
      // Without a locale, no argument at all: older hosts and English alike read that as English.
      listLabs: (locale) => (locale ? call('labs.listLabs', locale) : call('labs.listLabs')),
      kernelSource: (file) => call('labs.kernelSource', file),
      validateParams: (lab, params) => call('labs.validateParams', lab, params),
    },
    runs: {
      startRun: (request) => call('runs.startRun', request),
      cancelRun: (runId) => call('runs.cancelRun', runId),
      listRuns: () => call('runs.listRuns'),
      getRun: (runId) => call('runs.getRun', runId),
      getRunProgress: (runId) => call('runs.getRunProgress', runId),
      deleteRun: (runId) => call('runs.deleteRun', runId),
      exportRun: (runId, format) => call('runs.exportRun', runId, format),
      onDidChangeRun: (listener) => {
        const stop = transport.on('runs.onDidChangeRun', (payload) => listener(payload as RunEvent));
        return { dispose: stop };
      },
    },
    reports: {
      writeReport: (request) => call('reports.writeReport', request),
      labsReportContents: (device) => call('reports.labsReportContents', device),
      writeLabsReport: (request) => call('reports.writeLabsReport', request),
    },
    playground: {
      listExercises: (locale) => (locale ? call('playground.listExercises', locale) : call('playground.listExercises')),
      status: () => call('playground.status'),
      runKernel: (request) => call('playground.runKernel', request),
      listKernelRuns: (exercise) => (exercise ? call('playground.listKernelRuns', exercise) : call('playground.listKernelRuns')),
      getKernelRun: (id) => call('playground.getKernelRun', id),
      deleteKernelRun: (id) => call('playground.deleteKernelRun', id),
      loadDraft: (exercise) => call('playground.loadDraft', exercise),
      saveDraft: (exercise, source) => call('playground.saveDraft', exercise, source),
    },
  };
}
