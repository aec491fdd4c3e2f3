// gpu-lab bench: the seed workloads on one device, as a table or as JSON.
import { parseArgs } from 'node:util';

import type { BenchRecord } from '../compute/bench-types.ts';
import { runCpuBench } from '../compute/bench-cpu.ts';
import type { CliCommand, CliIo } from './command.ts';
import { GpuLabError } from '../common/errors.ts';
import { checkDevice } from '../runner/lab-runner.ts';
import { UsageError } from './command.ts';

const USAGE = `Usage: gpu-lab bench [--device cpu|cuda:N] [--json] [--threads N] [--scale F]

Measures the seed workloads on one device and prints median, min and max time with GFLOP/s or GB/s.
  --device cpu|cuda:N  the device to measure (default: cpu)
  --json               print a JSON array, one object per measurement, instead of the table
  --threads N          threads for the multithreaded CPU variants (default: every logical core)
  --scale F            multiply every size by F, 0 < F <= 1, for a quick look (default: 1)`;

function fmt(value: number | null | undefined, digits = 4): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '—';
  return value >= 1000 ? value.toFixed(0) : value.toPrecision(digits);
}

export function formatBenchTable(records: BenchRecord[]): string {
  const header = ['id', 'variant', 'size', 'median ms', 'min ms', 'max ms', 'n', 'rate', 'verified', 'implementation'];
  const rows = records.map((r) => [
    r.id,
    r.variant,
    String(r.size),
    fmt(r.medianMs),
    fmt(r.minMs),
    fmt(r.maxMs),
    String(r.samples),
    r.tflops !== undefined ? `${fmt(r.tflops)} TFLOP/s` : r.gflops !== undefined ? `${fmt(r.gflops)} GFLOP/s` : r.gbps !== undefined ? `${fmt(r.gbps)} GB/s` : '',
    r.verified ? (r.relError === null ? 'yes' : `yes (${r.relError.toExponential(1)})`) : `FAILED (${r.relError?.toExponential(1) ?? 'n/a'})`,
    `${r.implementation}${r.noisy ? ' [noisy]' : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function parse(argv: string[]): { device: string; json: boolean; threads: number | undefined; scale: number } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        device: { type: 'string', default: 'cpu' },
        json: { type: 'boolean', default: false },
        threads: { type: 'string' },
        scale: { type: 'string', default: '1' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const device = values.device;
  if (device !== 'cpu' && !/^cuda:\d+$/.test(device)) {
    throw new UsageError(`--device: expected "cpu" or "cuda:N" but received "${device}"`);
  }
  let threads: number | undefined;
  if (values.threads !== undefined) {
    threads = Number(values.threads);
    if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
      throw new UsageError(`--threads: expected an integer from 1 to 256 but received "${values.threads}"`);
    }
  }
  const scale = Number(values.scale);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) {
    throw new UsageError(`--scale: expected a number greater than 0 and at most 1 but received "${values.scale}"`);
  }
  return { device, json: values.json, threads, scale };
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const { device, json, threads, scale } = parse(argv);
  if (device !== 'cpu') {
    // A device this machine does not have is a usage error, as for `gpu-lab run`: exit 2, naming the ones it has.
    const { deviceReport } = await import('../compute/device-report.ts');
    try {
      checkDevice(deviceReport().list, device);
    } catch (err) {
      if (err instanceof GpuLabError && err.code === 'INVALID_PARAMS') throw new UsageError(`INVALID_PARAMS: ${err.message}`);
      throw err;
    }
    const { runCudaBench } = await import('../compute/bench-cuda.ts');
    const records = await runCudaBench(device, { scale, onRecord: json ? undefined : (r) => io.err(`  ${r.id} ${r.variant} ${r.size}: ${fmt(r.medianMs)} ms\n`) });
    io.out(json ? `${JSON.stringify(records, null, 2)}\n` : `${formatBenchTable(records)}\n`);
    return records.every((r) => r.verified) ? 0 : 1;
  }
  const records = await runCpuBench({
    threads,
    scale,
    onRecord: json ? undefined : (r) => io.err(`  ${r.id} ${r.variant} ${r.size}: ${fmt(r.medianMs)} ms\n`),
  });
  io.out(json ? `${JSON.stringify(records, null, 2)}\n` : `${formatBenchTable(records)}\n`);
  // A result that failed verification is a failed measurement, not a time.
  return records.every((r) => r.verified) ? 0 : 1;
}

export const benchCommand: CliCommand = { name: 'bench', summary: 'measure the seed workloads on one device', usage: USAGE, run };
