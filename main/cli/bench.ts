// gpu-lab bench: the seed workloads on one device (main/labs/bench-plan.ts), measured by the compute host as a lab's
// points are, as a table or as JSON.
import { ComputeHostSupervisor } from '../engine/supervisor.ts';
import { DeviceLocks, waitingMessage, type DeviceLease } from '../engine/device-lock.ts';
import { labMessage } from '../labs/lab-text.ts';
import { cpuBenchPlan, cudaBenchPlan } from '../labs/bench-plan.ts';
import type { BenchPoint } from '../labs/bench-plan.ts';
import { measuredPoint } from '../runs/point-result.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { GpuLabError } from '../common/errors.ts';
import { isWebgpuDevice } from '../common/measurement.ts';
import { checkDevice } from '../runs/lab-runner.ts';
import { UsageError } from './command.ts';
import { option, parseArgs } from './cli-options.ts';
import { integerOption, numberOption } from './decimal.ts';
import { localizeDecimal, type Locale } from '../common/pure/locale.ts';
import type { Clock } from '../common/measurement.ts';
import type { PointResult } from '../common/run-record.ts';
import { countedSamples } from '../common/pure/statistics.ts';
import type { CliText } from './cli-text.ts';

// Four significant digits, whole from 1000; a decimal comma in Spanish.
function fmt(value: number | null | undefined, locale: Locale, digits = 4): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '—';
  return localizeDecimal(value >= 1000 ? value.toFixed(0) : value.toPrecision(digits), locale);
}

// One row of the bench: a workload measured on one device, with its statistics, its rate and whether its result
// matched the reference. The JSON of `gpu-lab bench --json` (scripts/compare-peers.mjs and scripts/bench.mjs put
// the peers beside it by id, variant and size).
export interface BenchRecord {
  id: string;
  device: string;
  variant: string;
  // Elements for elementwise work, N for an N×N GEMM, bytes for copies.
  size: number;
  // Null when the result failed verification: a wrong result has no time.
  medianMs: number | null;
  minMs: number | null;
  maxMs: number | null;
  samples: number;
  // The clock the figures come from: "events" (CUDA events), "host" (monotonic, after synchronising) or
  // "host-nosync" (monotonic, stopped when the launch returns).
  clock: Clock;
  gflops?: number;
  tflops?: number;
  gbps?: number;
  implementation: string;
  threads: number;
  verified: boolean;
  relativeError: number | null;
  noisy: boolean;
}

// The row of a measured point: its statistics and rates are the run record's, computed once (point-result.ts).
export function benchRecord(planned: BenchPoint, point: PointResult): BenchRecord {
  const verified = point.status === 'ok' && (point.verification?.passed ?? true);
  const s = verified ? point.stats : null;
  const record: BenchRecord = {
    id: planned.id,
    device: planned.device,
    variant: planned.variant,
    size: planned.size,
    medianMs: s?.median ?? null,
    minMs: s?.min ?? null,
    maxMs: s?.max ?? null,
    samples: point.stats?.count ?? countedSamples(point).length,
    clock: point.clock,
    implementation: point.implementation ?? '',
    threads: point.threads ?? 0,
    verified,
    relativeError: point.verification?.relativeError ?? null,
    noisy: s?.noisy ?? false,
  };
  if (point.gflops !== null && verified) {
    if (point.gflops >= 1000) record.tflops = point.gflops / 1000;
    else record.gflops = point.gflops;
  }
  if (point.gbps !== null && verified) record.gbps = point.gbps;
  return record;
}

const COLUMNS = ['id', 'variant', 'size', 'median', 'min', 'max', 'samples', 'rate', 'verified', 'implementation'] as const;

export function formatBenchTable(records: BenchRecord[], t: CliText, locale: Locale): string {
  const header = COLUMNS.map((c) => t(`bench.${c}`));
  const exponent = (x: number): string => localizeDecimal(x.toExponential(1), locale);
  const rows = records.map((r) => [
    r.id,
    r.variant,
    String(r.size),
    fmt(r.medianMs, locale),
    fmt(r.minMs, locale),
    fmt(r.maxMs, locale),
    String(r.samples),
    r.tflops !== undefined ? `${fmt(r.tflops, locale)} TFLOP/s` : r.gflops !== undefined ? `${fmt(r.gflops, locale)} GFLOP/s` : r.gbps !== undefined ? `${fmt(r.gbps, locale)} GB/s` : '',
    r.verified
      ? r.relativeError === null
        ? t('bench.yes')
        : t('bench.yesError', { error: exponent(r.relativeError) })
      : t('bench.failed', { error: r.relativeError === null || r.relativeError === undefined ? t('table.notApplicable') : exponent(r.relativeError) }),
    `${r.implementation}${r.noisy ? ` ${t('bench.noisy')}` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function parse(argv: string[]): { device: string; json: boolean; threads: number | undefined; scale: number; wait: boolean } {
  const args = parseArgs(argv, ['device', 'threads', 'scale'], ['json', 'no-wait']);
  if (args.positional.length) throw new UsageError('usage.unexpected', { value: args.positional[0] ?? '' });
  const device = option(args, 'device') ?? 'cpu';
  // The seed workloads are the CPU's and CUDA's; a WebGPU adapter runs the labs that have WGSL.
  if (isWebgpuDevice(device)) throw new UsageError('usage.benchWebgpu', { value: device });
  if (device !== 'cpu' && !/^cuda:\d+$/.test(device)) throw new UsageError('usage.cpuOrCuda', { value: device });
  const threadsText = option(args, 'threads');
  const threads = threadsText === undefined ? undefined : integerOption('threads', threadsText, { min: 1, max: 256 }, () => new UsageError('usage.threads', { value: threadsText }));
  const scaleText = option(args, 'scale') ?? '1';
  const scale = numberOption('scale', scaleText, { above: 0, max: 1 }, () => new UsageError('usage.scale', { value: scaleText }));
  return { device, json: args.flags.has('json'), threads, scale, wait: !args.flags.has('no-wait') };
}

// One point of the plan measured by the compute host, as a lab's point is, then written as a row.
async function measureRow(host: ComputeHostSupervisor, planned: BenchPoint): Promise<BenchRecord | null> {
  try {
    return benchRecord(planned, measuredPoint(planned, await host.measure(planned.measurement)));
  } catch (err) {
    const e = GpuLabError.from(err);
    if (planned.optional && e.code === 'UNSUPPORTED_OPERATION') return null;
    // No system BLAS here: the built-in blocked GEMM, named as such, as the labs do.
    const m = planned.measurement;
    if (e.code === 'BLAS_UNAVAILABLE' && m.op === 'gemm' && m.variant === 'blas') {
      const blocked: BenchPoint = { ...planned, variant: 'blocked', measurement: { ...m, variant: 'blocked' } };
      return benchRecord(blocked, measuredPoint(blocked, await host.measure(blocked.measurement)));
    }
    throw e;
  }
}

async function run(argv: string[], io: CliIo, { t, locale, launcher }: CliContext): Promise<number> {
  const { device, json, threads, scale, wait } = parse(argv);
  // Each measurement as it ends, on stderr; none with --json, whose stdout stays the bare JSON (in any language).
  const onRecord = json ? undefined : (r: BenchRecord): void => io.err(`${t('bench.progress', { id: r.id, variant: r.variant, size: r.size, median: fmt(r.medianMs, locale) })}\n`);
  // The addon is loaded by the compute host alone: a crash there is reported here, not fatal to this process.
  const host = new ComputeHostSupervisor({ launcher, log: () => undefined });
  let lease: DeviceLease | null = null;
  try {
    if (device !== 'cpu') {
      // A device this machine does not have is a usage error, as for `gpu-lab run`: INVALID_PARAMS, exit 2, naming the
      // ones it has in the CLI's language (main.ts).
      checkDevice((await host.environment()).devices, device);
    }
    const plan = device === 'cpu' ? cpuBenchPlan({ threads, scale }) : cudaBenchPlan(device, { scale });
    // The devices it measures on, held as a lab run holds them: another run waits, or this one waits for it.
    const locks = new DeviceLocks({ onWait: (holder) => io.err(`gpu-lab bench: ${labMessage(waitingMessage(holder), locale)}\n`) });
    lease = await locks.acquire([...new Set(plan.map((p) => p.device))], 'bench', device, { wait });
    const records: BenchRecord[] = [];
    for (const planned of plan) {
      const record = await measureRow(host, planned);
      if (!record) continue;
      records.push(record);
      onRecord?.(record);
    }
    io.out(json ? `${JSON.stringify(records, null, 2)}\n` : `${formatBenchTable(records, t, locale)}\n`);
    // A result that failed verification is a failed measurement, not a time.
    return records.every((r) => r.verified) ? 0 : 1;
  } finally {
    await lease?.release();
    await host.stop();
  }
}

export const benchCommand: CliCommand = { name: 'bench', usage: (t) => t('commands.bench.usage'), run };
