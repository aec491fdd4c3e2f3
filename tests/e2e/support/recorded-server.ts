// A serve-mode server over what an H100 recorded (its device report and a run of every lab, tests/fixtures/, with the
// CPU-only machine's runs beside them), for
// screenshots and checks of what a student with a GPU sees, on a machine that has none. Everything but the devices
// and the run store is the real thing: the HTTP and WebSocket shell, the dispatch, the labs' descriptors and
// sources. Starting a run is refused: nothing is measured here. Prints its link like `gpu-lab serve`.
//   node tests/e2e/support/recorded-server.ts
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { soloClassroom } from '../../../main/app/solo-classroom.ts';
import type { GpuLabApi } from '../../../main/common/contract/index.ts';
import type { DeviceReport } from '../../../main/common/device-report.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { PEERS_REPORT } from '../../../main/common/peer-protocol.ts';
import { LABS, labDescriptors } from '../../../main/labs/index.ts';
import type { ExerciseId } from '../../../main/common/playground.ts';
import { exerciseDescriptors } from '../../../main/playground/descriptors.ts';
import { KernelStore } from '../../../main/playground/kernel-store.ts';
import { createReportsService } from '../../../main/reports/reports-service.ts';
import { defaultSourceRoots, readKernelSource } from '../../../main/sources/kernel-sources.ts';
import { createImportUploads } from '../../../main/runs/import-uploads.ts';
import { validateRunRequest } from '../../../main/runs/lab-runner.ts';
import { referenceResults } from '../../../main/runs/reference-store.ts';
import { importRuns } from '../../../main/runs/run-import.ts';
import { exportRun } from '../../../main/runs/run-export.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { defaultsTimeBounds } from '../../../main/runs/time-bound.ts';
import { rendererDir } from '../../../main/serve/renderer-dir.ts';
import { startServer } from '../../../main/serve/server.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const recorded = JSON.parse(readFileSync(join(fixtures, 'devices-h100.json'), 'utf8')) as DeviceReport['list'] & Omit<DeviceReport, 'list'>;
const report: DeviceReport = {
  list: { devices: recorded.devices, cudaReason: recorded.cudaReason, blas: recorded.blas },
  cuda: recorded.cuda,
  telemetry: recorded.telemetry,
};

const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-recorded-'));
const store = new RunStore(dataDir);
// The H100's runs, and the CPU-only machine's beside them, so that a GPU run can be compared with a CPU one.
for (const name of readdirSync(join(fixtures, 'runs'))) {
  const record = JSON.parse(readFileSync(join(fixtures, 'runs', name), 'utf8')) as { id: string };
  writeFileSync(join(store.dir, `${record.id}.json`), JSON.stringify(record));
}

// The H100's kernel runs (tests/fixtures/kernel-runs/), in a kernel store of their own; drafts live in memory.
const kernels = new KernelStore(dataDir);
const kernelFixtures = join(fixtures, 'kernel-runs');
for (const name of existsSync(kernelFixtures) ? readdirSync(kernelFixtures).filter((n) => n.endsWith('.json')) : []) {
  const run = JSON.parse(readFileSync(join(kernelFixtures, name), 'utf8')) as { id: string };
  writeFileSync(join(kernels.runsDir, `${run.id}.json`), JSON.stringify(run));
}
const drafts = new Map<ExerciseId, string>();
const nvrtc = report.cuda.libraries.nvrtc;

const notHere = (): never => {
  throw new GpuLabError('CUDA_UNAVAILABLE', 'This is a recorded H100 session: nothing can be measured here');
};

const api: GpuLabApi = {
  devices: {
    listDevices: async () => report.list,
    inspectDevices: async () => report,
    // What gpu-lab peers said on the GPU machine (tests/fixtures/peers/h100.json, from its text of 2026-11-26: Numba's
    // CUDA target as the probe that compiles a vectorize reads it).
    inspectPython: async () => PEERS_REPORT.parse(JSON.parse(readFileSync(join(fixtures, 'peers', 'h100.json'), 'utf8'))),
    readTelemetry: async (device) => {
      const reading = report.telemetry.find((t) => t.device === device);
      if (!reading) throw new GpuLabError('INVALID_ARGUMENT', `No telemetry was recorded for ${device}`);
      return { ...reading, timestamp: Date.now() };
    },
  },
  labs: {
    listLabs: async (locale) => labDescriptors(locale),
    kernelSource: (file) => readKernelSource(file, labDescriptors(), defaultSourceRoots()),
    validateParams: async (lab, params) => validateRunRequest({ lab, params }).params,
    referenceResults: (lab) => referenceResults(lab, dataDir, (m) => process.stderr.write(`${m}\n`)),
    // The H100's plans, with the peers its interpreter had.
    timeBounds: async (device) =>
      defaultsTimeBounds(LABS, { devices: report.list, versions: {}, pid: 0 }, device, PEERS_REPORT.parse(JSON.parse(readFileSync(join(fixtures, 'peers', 'h100.json'), 'utf8')))),
  },
  runs: {
    startRun: async () => notHere(),
    cancelRun: async () => undefined,
    listRuns: () => store.list(),
    getRun: (id) => store.get(id),
    getRunProgress: async () => null,
    deleteRun: (id) => store.delete(id),
    exportRun: async (id, format) => exportRun(await store.get(id), format),
    onDidChangeRun: () => ({ dispose: () => undefined }),
  },
  playground: {
    listExercises: async (locale) => exerciseDescriptors(locale ?? 'en', defaultSourceRoots()),
    status: async () => ({
      nvrtc: { available: nvrtc.found, version: nvrtc.version, reason: nvrtc.reason },
      devices: report.cuda.devices.map((d) => ({ id: d.id, name: d.name, computeCapability: d.computeCapability })),
      unavailableReason: null,
    }),
    runKernel: async () => notHere(),
    listKernelRuns: (exercise) => kernels.list(exercise),
    getKernelRun: (id) => kernels.get(id),
    deleteKernelRun: (id) => kernels.delete(id),
    loadDraft: async (exercise) => drafts.get(exercise) ?? null,
    saveDraft: async (exercise, source) => void drafts.set(exercise, source),
  },
  // Runs imported into the recorded folder, as into any other.
  imports: createImportUploads({ dataDir, importRuns: (sources) => importRuns(sources, { dataDir, store }) }),
  // The real report writer, over the recorded runs.
  reports: createReportsService({ getRun: (id) => store.get(id), listRuns: () => store.list(), getKernelRun: (id) => kernels.get(id), runsDir: store.dir, writerVersion: 'recorded', sourceRoots: defaultSourceRoots() }),
  classroom: soloClassroom(),
};

const staticDir = rendererDir();
if (!staticDir) throw new Error('the renderer is not built: npm run build:renderer');
const server = await startServer({ api, staticDir, port: 0 });
process.stdout.write(`recorded H100 session on ${server.origin}\n  ${server.url}\n`);
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
