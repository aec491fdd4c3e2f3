// gpu-lab bench: the seed workloads on one device, as a table or as JSON.
import type { BenchRecord } from '../compute/bench-types.ts';
import { runCpuBench } from '../compute/bench-cpu.ts';
import type { CliCommand, CliContext, CliIo } from './command.ts';
import { GpuLabError } from '../common/errors.ts';
import { checkDevice } from '../runner/lab-runner.ts';
import { UsageError } from './command.ts';
import { option, parseArgs } from './cli-options.ts';
import { localizeDecimal, type Locale } from '../common/locale.ts';
import type { CliText } from './words/index.ts';

// Four significant digits, whole from 1000; a decimal comma in Spanish.
function fmt(value: number | null | undefined, locale: Locale, digits = 4): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '—';
  return localizeDecimal(value >= 1000 ? value.toFixed(0) : value.toPrecision(digits), locale);
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
      ? r.relError === null
        ? t('bench.yes')
        : t('bench.yesError', { error: exponent(r.relError) })
      : t('bench.failed', { error: r.relError === null || r.relError === undefined ? t('table.notApplicable') : exponent(r.relError) }),
    `${r.implementation}${r.noisy ? ` ${t('bench.noisy')}` : ''}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function parse(argv: string[]): { device: string; json: boolean; threads: number | undefined; scale: number } {
  const args = parseArgs(argv, ['device', 'threads', 'scale'], ['json']);
  if (args.positional.length) throw new UsageError('usage.unexpected', { value: args.positional[0] ?? '' });
  const device = option(args, 'device') ?? 'cpu';
  if (device !== 'cpu' && !/^cuda:\d+$/.test(device)) throw new UsageError('usage.device', { value: device });
  const threadsText = option(args, 'threads');
  let threads: number | undefined;
  if (threadsText !== undefined) {
    threads = Number(threadsText);
    if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new UsageError('usage.threads', { value: threadsText });
  }
  const scaleText = option(args, 'scale') ?? '1';
  const scale = Number(scaleText);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1) throw new UsageError('usage.scale', { value: scaleText });
  return { device, json: args.flags.has('json'), threads, scale };
}

async function run(argv: string[], io: CliIo, { t, locale }: CliContext): Promise<number> {
  const { device, json, threads, scale } = parse(argv);
  // Each measurement as it ends, on stderr; none with --json, whose stdout stays the bare JSON (in any language).
  const onRecord = json ? undefined : (r: BenchRecord): void => io.err(`${t('bench.progress', { id: r.id, variant: r.variant, size: r.size, median: fmt(r.medianMs, locale) })}\n`);
  const print = (records: BenchRecord[]): void => io.out(json ? `${JSON.stringify(records, null, 2)}\n` : `${formatBenchTable(records, t, locale)}\n`);
  if (device !== 'cpu') {
    // A device this machine does not have is a usage error, as for `gpu-lab run`: exit 2, naming the ones it has.
    const { deviceReport } = await import('../compute/device-report.ts');
    try {
      checkDevice(deviceReport().list, device);
    } catch (err) {
      if (err instanceof GpuLabError && err.code === 'INVALID_PARAMS') throw new UsageError('error.coded', { code: err.code, detail: err.message });
      throw err;
    }
    const { runCudaBench } = await import('../compute/bench-cuda.ts');
    const records = await runCudaBench(device, { scale, onRecord });
    print(records);
    return records.every((r) => r.verified) ? 0 : 1;
  }
  const records = await runCpuBench({ threads, scale, onRecord });
  print(records);
  // A result that failed verification is a failed measurement, not a time.
  return records.every((r) => r.verified) ? 0 : 1;
}

export const benchCommand: CliCommand = { name: 'bench', usage: (t) => t('commands.bench.usage'), run };
