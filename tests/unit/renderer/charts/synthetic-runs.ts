// Run records as the runner would store them, built from the labs' own plans and analyses with chosen times, and the
// English catalog's translate function: what the chart and table functions get in the app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createI18n } from 'vue-i18n';

import { validateParams } from '../../../../main/common/params.ts';
import type { LabDescriptor, ParamValues } from '../../../../main/common/lab-descriptor.ts';
import { RUN_SCHEMA_VERSION } from '../../../../main/common/run-record.ts';
import type { PointResult, RunRecord } from '../../../../main/common/run-record.ts';
import { STORED_RECORD } from '../../../../main/runs/stored-record.ts';
import { findLab, labDescriptors } from '../../../../main/labs/index.ts';
import type { PlanContext, PlannedPoint } from '../../../../main/labs/lab.ts';
import { measuredPoint, waivedPoint } from '../../../../main/runs/point-result.ts';
import type { ChartInputs } from '../../../../main/common/pure/charts/chart-common.ts';
import { LIGHT_CHART_THEME } from '../../../../main/common/pure/charts/palette.ts';
import type { Translate } from '../../../../main/common/pure/charts/text.ts';
import { appMessages as en } from '../../../../main/common/pure/i18n/en/index.ts';
import { CPU_ONLY, GPU, WITH_GPU } from '../../labs/synthetic.ts';

const i18n = createI18n({ legacy: false, locale: 'en', messages: { en } });

export const t: Translate = (key, named = {}, plural) => (plural === undefined ? i18n.global.t(key, named) : i18n.global.t(key, named, plural));

export const inputs: ChartInputs = { theme: LIGHT_CHART_THEME, t };

// Five samples with a visible spread: min 0.9, q1 0.97, median 1, q3 1.04, max 1.3 times the median.
const SPREAD = [0.9, 0.97, 1, 1.04, 1.3];

export function measured(planned: PlannedPoint, medianMs: number): PointResult {
  return measuredWith(planned, SPREAD.map((f) => f * medianMs));
}

// A planned point measured with exactly these samples.
export function measuredWith(planned: PlannedPoint, hostMs: number[]): PointResult {
  return measuredPoint(planned, {
    clock: planned.clock,
    hostMs,
    deviceMs: hostMs,
    executionsPerSample: 1,
    implementation: 'synthetic',
    threads: 2,
    verification: { method: 'full', checked: 1, total: 1, relativeError: 1.2e-7, tolerance: 1e-5, passed: true, mismatches: [] },
    telemetry: null,
  });
}

export interface RunOptions {
  gpu?: boolean;
  params?: ParamValues;
  // Median time of a planned point; by default work at 100 GFLOP/s or 10 GB/s, GPU points 20× faster.
  medianMs?: (p: PlannedPoint) => number;
  // The samples of a planned point, where the test chooses them all (the spread too); before medianMs.
  samplesMs?: (p: PlannedPoint, index: number) => number[];
  id?: string;
  // The run's state: completed unless said (a live run is 'running').
  status?: RunRecord['status'];
  // Every Python peer asked for and found (with CUDA), so that the lab's peer series are planned too.
  peers?: boolean;
}

const EVERY_PEER: NonNullable<PlanContext['peers']> = {
  asked: ['numpy', 'torch', 'cupy', 'numba'],
  report: {
    interpreter: 'python3',
    available: true,
    probe: { python: '3.12.3', executable: '/usr/bin/python3', libraries: Object.fromEntries(['numpy', 'torch', 'cupy', 'numba'].map((l) => [l, { found: true as const, version: '1.0', cudaAvailable: true, devices: ['GPU'] }])) },
  },
};

function defaultMs(p: PlannedPoint): number {
  const ms = Math.max(p.work.flops / 1e8, p.work.bytes / 1e7, 0.001);
  return p.device === 'cpu' ? ms : ms / 20 + 0.01;
}

export function syntheticRun(labId: string, options: RunOptions = {}): { record: RunRecord; lab: LabDescriptor } {
  const lab = findLab(labId);
  if (!lab) throw new Error(`no lab ${labId}`);
  const params = validateParams(labId, lab.descriptor.parameters, options.params ?? {});
  const ctx = { ...(options.gpu === false ? CPU_ONLY : WITH_GPU), ...(options.peers ? { peers: EVERY_PEER } : {}) };
  const ms = options.medianMs ?? defaultMs;
  const samples = options.samplesMs;
  const points = lab.plan(params, ctx).map((p, i) => (p.measurement ? (samples ? measuredWith(p, samples(p, i)) : measured(p, ms(p))) : waivedPoint(p)));
  const analysis = lab.analyze(points, params, options.gpu === false ? null : GPU);
  const record: RunRecord = {
    schemaVersion: RUN_SCHEMA_VERSION,
    id: options.id ?? `${labId}-synthetic`,
    lab: labId,
    labTitle: lab.descriptor.title,
    device: options.gpu === false ? 'cpu' : 'cuda:0',
    params,
    status: options.status ?? 'completed',
    error: null,
    createdAt: '2025-05-01T10:00:00.000Z',
    finishedAt: '2025-05-01T10:01:00.000Z',
    appVersion: '0.1.0',
    environment: { devices: null, versions: {}, hostPid: null },
    points,
    summary: analysis.summary,
    findings: analysis.findings,
    warnings: [],
  };
  return { record, lab: lab.descriptor };
}

export function withPoint(record: RunRecord, key: string, change: (p: PointResult) => PointResult): RunRecord {
  return { ...record, points: record.points.map((p) => (p.key === key ? change(p) : p)) };
}

// A point turned failed with its samples, statistics and rates left in place: the worst record a chart could get, so
// that only the status keeps it from being drawn.
export function failed(p: PointResult, message = 'CUDA_ERROR_LAUNCH_FAILED in cudaLaunchKernel'): PointResult {
  return { ...p, status: 'failed', reason: message, error: { code: 'CUDA_ERROR', message } };
}

// Vitest runs from the repository's root; in happy-dom import.meta.url is not a file URL.
const FIXTURES = join(process.cwd(), 'tests/fixtures/runs');

// A stored run from tests/fixtures/runs (CPU runs of the build machine, GPU runs of an H100), read as the app reads it
// (a version 1 record in this version's words, its points named by messages), with its lab as the app is given it, in
// English with its messages.
export function fixtureRun(name: string): { record: RunRecord; lab: LabDescriptor } {
  const record = STORED_RECORD.parse(JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')));
  const lab = labDescriptors('en').find((d) => d.id === record.lab);
  if (!lab) throw new Error(`no lab ${record.lab}`);
  return { record, lab };
}
