// The lab host: the services of the contract wired together over one compute host and one run store. The CLI, the
// serve shell and the Electron main process each create one.
import { PEER_LIBRARIES, PYTHON_ENV } from '../common/peer-protocol.ts';
import type { PythonSource } from '../common/desktop-api.ts';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import type { GpuLabApi } from '../common/contract/index.ts';
import type { DevicesService } from '../common/contract/devices.ts';
import type { ImportsService } from '../common/contract/imports.ts';
import type { LabsService } from '../common/contract/labs.ts';
import type { ClassOverview } from '../common/contract/classroom.ts';
import type { ReportsService } from '../common/contract/reports.ts';
import type { RunSummary } from '../common/run-record.ts';
import { ComputeHostSupervisor } from '../engine/supervisor.ts';
import { DeviceLocks, type LockHolder } from '../engine/device-lock.ts';
import type { SupervisorOptions } from '../engine/supervisor.ts';
import { LABS, labDescriptors } from '../labs/index.ts';
import { KernelStore } from '../playground/kernel-store.ts';
import { createPlaygroundService } from '../playground/playground-service.ts';
import type { LocalPlaygroundService } from '../playground/playground-service.ts';
import { createReportsService } from '../reports/reports-service.ts';
import type { ReportOptions, ReportPdf } from '../reports/report-writer.ts';
import { defaultSourceRoots, readKernelSource } from '../sources/kernel-sources.ts';
import { createImportUploads } from '../runs/import-uploads.ts';
import { LabRunner, validateRunRequest } from '../runs/lab-runner.ts';
import { referenceResults } from '../runs/reference-store.ts';
import { importRuns } from '../runs/run-import.ts';
import { RunStore } from '../runs/run-store.ts';
import { soloClassroom } from './solo-classroom.ts';
import { defaultsTimeBounds } from '../runs/time-bound.ts';

export interface LabHost extends GpuLabApi {
  runs: LabRunner;
  playground: LocalPlaygroundService;
  supervisor: ComputeHostSupervisor;
  store: RunStore;
  kernels: KernelStore;
  // The reports service over some of the runs only (a student's, on a class's server): the labs report picks among
  // them.
  reportsOver(listRuns: () => Promise<RunSummary[]>): ReportsService;
  // The class's PDF (a class's server): its summary of the class, then the runs of `records`, each student's.
  writeClassReport(overview: ClassOverview, records: readonly unknown[], options: ReportOptions): Promise<ReportPdf>;
  // Stops the compute host at once; a run in progress fails with it. Prefer close().
  dispose(): Promise<void>;
  // How a shell stops: every run in progress is cancelled (its record keeps the points measured and says so), the
  // sample being taken waited for while the time allows, then the compute host goes (a sample still running stops with
  // it, the run still recorded as cancelled). Ends within `withinMs` whatever the host does, the records written.
  close(withinMs?: number): Promise<void>;
}

export interface LabHostOptions {
  dataDir?: string;
  supervisor?: ComputeHostSupervisor | SupervisorOptions;
  warn?: (message: string) => void;
  // Folders holding shaders/ and native/ for the kernel sources the labs show (a packaged app's resources first).
  sourceRoots?: string[];
  // Where the devices' locks live (default: GPU_LAB_LOCK_DIR, else gpu-lab-locks in the system's temporary folder).
  lockDir?: string;
  // Told when a kernel run waits for a device another run holds (a lab run says so in its progress instead).
  onDeviceWait?: (holder: LockHolder) => void;
  // Where the compute host's Python interpreter was named, for the devices page (default: GPU_LAB_PYTHON in this
  // process's environment, which the host inherits, from --python or the shell; else python3 from PATH).
  pythonSource?: () => PythonSource;
}

// $XDG_DATA_HOME/gpu-lab, else ~/.local/share/gpu-lab.
export function defaultDataDir(): string {
  const xdg = process.env.XDG_DATA_HOME;
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local', 'share'), 'gpu-lab');
}

// package.json sits two folders up from main/app/ in sources, three from dist/main/app/.
export function appVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'gpu-lab' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not at this level; try the next.
    }
  }
  return 'unknown';
}

export function createLabHost(options: LabHostOptions = {}): LabHost {
  const supervisor = options.supervisor instanceof ComputeHostSupervisor ? options.supervisor : new ComputeHostSupervisor(options.supervisor);
  const dataDir = options.dataDir ?? defaultDataDir();
  const store = new RunStore(dataDir, { warn: options.warn });
  const locks = new DeviceLocks({ dir: options.lockDir, onWait: options.onDeviceWait });
  const runs = new LabRunner({ store, host: supervisor, appVersion: appVersion(), locks });
  const devices: DevicesService = {
    listDevices: async () => (await supervisor.environment()).devices,
    inspectDevices: () => supervisor.inspect(),
    readTelemetry: (device) => supervisor.telemetry(device),
    inspectPython: async () => {
      const source = options.pythonSource?.() ?? (process.env[PYTHON_ENV] ? 'environment' : 'default');
      return { ...(await supervisor.peers(PEER_LIBRARIES)), source };
    },
  };
  const sourceRoots = options.sourceRoots ?? defaultSourceRoots();
  const kernels = new KernelStore(options.dataDir ?? defaultDataDir(), { warn: options.warn });
  const warn = options.warn ?? ((m: string) => process.stderr.write(`gpu-lab: ${m}\n`));
  const references = (lab: string): ReturnType<LabsService['referenceResults']> => referenceResults(lab, dataDir, warn);
  const reportsOver = (listRuns: () => Promise<RunSummary[]>): ReportsService =>
    createReportsService({ getRun: (id) => runs.getRun(id), listRuns, getKernelRun: (id) => kernels.get(id), runsDir: store.dir, writerVersion: appVersion(), sourceRoots, references });
  const reports = reportsOver(() => runs.listRuns());
  const playground = createPlaygroundService({ supervisor, store: kernels, sourceRoots, locks });
  const imports: ImportsService = createImportUploads({ dataDir, importRuns: (sources) => importRuns(sources, { dataDir, store }) });
  const labs: LabsService = {
    listLabs: async (locale) => labDescriptors(locale),
    kernelSource: (file) => readKernelSource(file, labDescriptors(), sourceRoots),
    validateParams: async (lab, params) => validateRunRequest({ lab, params }).params,
    referenceResults: references,
    timeBounds: async (device) => {
      const env = await supervisor.environment();
      return defaultsTimeBounds(LABS, env, device, await supervisor.peers(PEER_LIBRARIES));
    },
  };
  return {
    devices,
    labs,
    runs,
    imports,
    reports,
    playground,
    classroom: soloClassroom(),
    supervisor,
    store,
    kernels,
    reportsOver,
    async writeClassReport(overview, records, reportOptions) {
      // Loaded on the first report, as the reports service loads it: the PDF library and the canvas cost half a second.
      const { writeClassReport } = await import('../reports/report-writer.ts');
      return writeClassReport(overview, records, { sourceRoots, ...reportOptions });
    },
    async dispose() {
      await supervisor.stop();
    },
    async close(withinMs = 15_000) {
      const end = Date.now() + withinMs;
      // Until `share` of what is left is spent (the rest kept for the steps after), or `what` is done.
      const until = (what: Promise<unknown>, share: number): Promise<unknown> =>
        Promise.race([what, new Promise((resolve) => setTimeout(resolve, Math.max(0, (end - Date.now()) * share)).unref())]);
      runs.cancelAll();
      // A run being started now is cancelled with the others, not left to start after the host is gone.
      await until(runs.whenStarted(), 0.2);
      runs.cancelAll();
      await until(runs.whenIdle(), 0.5);
      await until(supervisor.stop(), 0.5);
      // A run still measuring failed with the host, as cancelled; its record is stored before close() returns.
      await until(runs.whenIdle(), 1);
    },
  };
}
