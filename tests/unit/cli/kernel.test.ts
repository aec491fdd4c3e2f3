// gpu-lab kernel: the exercises and their kernels in English and Spanish, the refusals of a bad run (exit 2, naming
// the option and the value), a run where there is no GPU or no NVRTC (exit 1, the reason, nothing stored), the
// stored runs listed, and a finished run printed as a student reads it: the compiler's messages where an editor
// finds them, the first wrong elements, the timings beside the references, and why a run failed.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { kernelRunText } from '../../../main/cli/kernel-run-text.ts';
import { kernelRequest } from '../../../main/cli/kernel.ts';
import { parseArgs } from '../../../main/cli/cli-options.ts';
import { resolveRequest } from '../../../main/playground/playground-service.ts';
import { runCli } from '../../../main/cli/main.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import { formatMs, formatPercent, formatRate } from '../../../main/common/pure/format.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import { EXERCISE_IDS, KERNEL_RUN } from '../../../main/common/playground.ts';
import type { Comparison, KernelRun, KernelRunResult } from '../../../main/common/playground.ts';
import { exerciseDefinition, signatureOf } from '../../../main/common/exercises.ts';
import { exercises as playgroundEn } from '../../../main/common/pure/i18n/en/exercises.ts';
import { exercises as playgroundEs } from '../../../main/common/pure/i18n/es/exercises.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import { fixture, pdfText, tempDir } from '../reports/pdf-tools.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

async function gpuLab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, {});
  return { code, out, err };
}

const cx = (locale: Locale): { locale: Locale; t: ReturnType<typeof cliText> } => ({ locale, t: cliText(locale) });

// A recorded run as the kernel store reads it back: through its schema, which reads an earlier build's counts.
const recorded = (name: string): KernelRun => KERNEL_RUN.parse(JSON.parse(readFileSync(join(root, 'tests/fixtures/kernel-runs', name), 'utf8')));

describe('gpu-lab kernel list and show', () => {
  it.each(['en', 'es'] as const)('lists the eight exercises with their titles, signatures and metrics (%s)', async (lang) => {
    const r = await gpuLab('kernel', 'list', '--lang', lang);
    expect(r.code, r.err).toBe(0);
    const text = lang === 'es' ? playgroundEs : playgroundEn;
    for (const id of EXERCISE_IDS) {
      const def = exerciseDefinition(id);
      expect(r.out).toContain(`${id}  —  ${text[id].title}\n  ${signatureOf(def)}\n`);
      expect(r.out).toContain(`${def.size.name} = ${def.size.default} ${lang === 'es' ? 'por defecto' : 'by default'} (${def.size.min} … ${def.size.max})`);
    }
    expect(r.out.match(/^\S+ {2}— {2}/gm)).toHaveLength(EXERCISE_IDS.length);
  });

  it('lists the descriptors as JSON, in English whatever the language', async () => {
    const r = await gpuLab('kernel', 'list', '--json', '--lang', 'es');
    const list = JSON.parse(r.out) as { id: string; title: string; signature: string; kernels: { id: string; text: string }[] }[];
    expect(list.map((e) => e.id)).toEqual([...EXERCISE_IDS]);
    expect(list.find((e) => e.id === 'saxpy')?.title).toBe(playgroundEn.saxpy.title);
  });

  it('shows an exercise: its statement, signature, work and kernels, and its hints when asked', async () => {
    const r = await gpuLab('kernel', 'show', 'sgemm', '--lang', 'es');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^SGEMM: el producto C = A·B$/m);
    expect(r.out).toContain(`Firma:\n  ${signatureOf(exerciseDefinition('sgemm'))}\n`);
    expect(r.out).toContain(`Trabajo: ${playgroundEs.sgemm.work}; se mide en GFLOP/s`);
    for (const k of exerciseDefinition('sgemm').kernels) expect(r.out).toMatch(new RegExp(`^  ${k.id} +\\S.*\\(${k.file}\\)$`, 'm'));
    expect(r.out).toContain('3 pistas: gpu-lab kernel show sgemm --hints');
    expect(r.out).not.toContain(playgroundEs.sgemm.hints[0]?.slice(0, 30));
    const hints = await gpuLab('kernel', 'show', 'saxpy', '--hints', '--lang', 'en');
    playgroundEn.saxpy.hints.forEach((h, i) => expect(hints.out).toContain(`  ${i + 1}. ${h.split(' ').slice(0, 4).join(' ')}`));
    // Wrapped for a terminal: no line of the statement runs past 100 characters.
    expect(Math.max(...r.out.split('\n').filter((l) => !l.includes('(shaders/')).map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  it.each(['saxpy', 'reduction', 'transpose'] as const)('prints the %s starter kernel exactly as its file, ready to redirect', async (id) => {
    const r = await gpuLab('kernel', 'show', id, '--kernel', 'starter');
    expect(r.code, r.err).toBe(0);
    const starter = exerciseDefinition(id).kernels.find((k) => k.id === 'starter');
    expect(r.out).toBe(readFileSync(join(root, starter?.file ?? 'missing'), 'utf8'));
  });

  it('refuses a kernel the exercise does not have, naming the ones it has', async () => {
    const r = await gpuLab('kernel', 'show', 'saxpy', '--kernel', 'tiled', '--lang', 'en');
    expect(r.code).toBe(2);
    expect(r.err).toBe('gpu-lab kernel: exercise saxpy has no kernel "tiled"; its kernels are starter, grid-stride-float4\n');
  });
});

// Whether kernels can run here is the playground's to say; the tests check that the command says the same.
const probe = createLabHost({ dataDir: tempDir(), supervisor: { log: () => undefined } });
const status = await probe.playground.status().finally(() => probe.dispose());

describe('gpu-lab kernel run on this machine', () => {
  const dataDir = tempDir('gpu-lab-cli-kernel-');
  const file = join(tempDir('gpu-lab-cli-kernel-src-'), 'my_saxpy.cu');
  writeFileSync(file, readFileSync(join(root, 'shaders/playground/saxpy.starter.cu')));
  const stored = (): string[] => readdirSync(join(dataDir, 'kernels', 'runs'));

  it.each([
    [['--block', '0,1'], /^gpu-lab kernel: --block: expected one to three positive integers x\[,y\[,z\]\], such as 256 or 16,16, but received "0,1"$/m],
    [['--block', 'a'], /--block: .* but received "a"$/m],
    [['--grid', '4,4,4,4'], /--grid: .* but received "4,4,4,4"$/m],
    [['--size', '0'], /^gpu-lab kernel: --size: expected an integer from 1 to 268435456 \(n of saxpy\) but received "0"$/m],
    [['--size', '268435457'], /--size: .* but received "268435457"$/m],
    [['--device', 'cpu'], /--device: expected "cuda:N" \(kernels run on a GPU\) but received "cpu"$/m],
    // Past CUDA's limits: refused by the playground service, which names the field and the limit, before any GPU.
    [['--block', '32,32,2'], /INVALID_ARGUMENT: `block` = \[32, 32, 2\] is not allowed: expected at most 1024 threads in all/],
  ])('refuses %j as bad usage (exit 2), naming the option and the value', async (options, message) => {
    const r = await gpuLab('kernel', 'run', 'saxpy', file, ...options, '--data-dir', dataDir, '--lang', 'en');
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toBe('');
  });

  it('refuses a missing file, a folder, an oversized file and an unknown exercise (exit 2), naming them', async () => {
    const missing = join(dataDir, 'nope.cu');
    expect(await gpuLab('kernel', 'run', 'saxpy', missing, '--data-dir', dataDir)).toMatchObject({ code: 2, err: `gpu-lab kernel: ${missing}: no such file\n` });
    expect(await gpuLab('kernel', 'run', 'saxpy', dataDir, '--data-dir', dataDir)).toMatchObject({ code: 2, err: `gpu-lab kernel: ${dataDir} is a folder: expected the .cu file of your kernel\n` });
    const big = join(tempDir(), 'big.cu');
    writeFileSync(big, `// ${'x'.repeat(100_000)}\n`);
    const tooLong = await gpuLab('kernel', 'run', 'saxpy', big, '--data-dir', dataDir);
    expect(tooLong.code).toBe(2);
    expect(tooLong.err).toContain(`${big} holds 100004 characters; a kernel source may hold at most 100000`);
    const unknown = await gpuLab('kernel', 'run', 'saxpi', file, '--data-dir', dataDir, '--lang', 'es');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no existe el ejercicio «saxpi»; los ejercicios son polynomial-fp32, polynomial-fp64, saxpy, reduction, transpose, sgemm');
    expect(stored()).toEqual([]);
  });

  it('reads only a regular file, its size checked before a byte is read: /dev/zero, a FIFO and 2 MiB are refused at once (exit 2)', async () => {
    expect(await gpuLab('kernel', 'run', 'saxpy', '/dev/zero', '--data-dir', dataDir)).toMatchObject({
      code: 2,
      err: 'gpu-lab kernel: /dev/zero is a character device, not a file: expected the .cu file of your kernel\n',
    });
    const fifo = join(tempDir(), 'kernel.cu');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    try {
      expect(await gpuLab('kernel', 'run', 'saxpy', fifo, '--data-dir', dataDir)).toMatchObject({ code: 2, err: `gpu-lab kernel: ${fifo} is a FIFO (a named pipe), not a file: expected the .cu file of your kernel\n` });
    } finally {
      // The code before this check blocked on it: a writer lets it go (ENXIO where no reader waits).
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // Nobody waits on it.
      }
    }
    const huge = join(tempDir(), 'huge.cu');
    writeFileSync(huge, '');
    truncateSync(huge, 2 * 1024 * 1024);
    expect(await gpuLab('kernel', 'run', 'saxpy', huge, '--data-dir', dataDir, '--lang', 'es')).toMatchObject({
      code: 2,
      err: `gpu-lab kernel: ${huge} ocupa 2097152 bytes; el código de un kernel puede ocupar como mucho 1048576 (no se ha leído nada)\n`,
    });
    expect(stored()).toEqual([]);
  }, 20_000);

  it('runs a kernel of the exercise with --kernel ID, as kernel show prints it, its launch left to its header', async () => {
    const { request, path } = await kernelRequest(parseArgs(['run', 'sgemm', '--kernel', 'shared-tiles', '--no-compare'], ['kernel'], ['no-compare']));
    expect(path).toBe('shaders/playground/sgemm.shared.cu');
    expect(request).toEqual({ exercise: 'sgemm', source: readFileSync(join(root, path), 'utf8'), compare: false, fileName: 'sgemm.shared.cu' });
    // No block or grid in the request: the service applies the file's header, blocks of 32 × 32.
    expect(resolveRequest(request).launch).toMatchObject({ block: [32, 32, 1], grid: [128, 128, 1] });
    const withBlock = await kernelRequest(parseArgs(['run', 'sgemm', '--kernel', 'shared-tiles', '--block', '16,16'], ['kernel', 'block'], []));
    expect(withBlock.request.block).toEqual([16, 16, 1]);
  });

  it('refuses --kernel with a file, and a kernel the exercise does not have (exit 2)', async () => {
    const both = await gpuLab('kernel', 'run', 'sgemm', file, '--kernel', 'starter', '--data-dir', dataDir, '--lang', 'en');
    expect(both).toMatchObject({ code: 2, err: `gpu-lab kernel: --kernel starter runs that kernel of the exercise: it does not go with a file (${file})\n` });
    const unknown = await gpuLab('kernel', 'run', 'sgemm', '--kernel', 'tiles', '--data-dir', dataDir, '--lang', 'en');
    expect(unknown).toMatchObject({ code: 2, err: 'gpu-lab kernel: exercise sgemm has no kernel "tiles"; its kernels are starter, shared-tiles, builtin-tiled\n' });
    const neither = await gpuLab('kernel', 'run', 'sgemm', '--data-dir', dataDir, '--lang', 'en');
    expect(neither.err).toContain('gpu-lab kernel run sgemm FILE.cu (or a kernel of the exercise: --kernel ID)');
    expect(stored()).toEqual([]);
  });

  it('refuses a launch header it cannot read as bad input (exit 2), naming the line, the field, the value and what was expected', async () => {
    const bad = join(tempDir(), 'bad-header.cu');
    writeFileSync(bad, '// launch: block=32x64\n__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n) {}\n');
    const r = await gpuLab('kernel', 'run', 'saxpy', bad, '--data-dir', dataDir, '--lang', 'en');
    expect(r.code).toBe(2);
    expect(r.err).toContain('`source` line 1, the launch header: `block` = "32x64" is not allowed: expected at most 1024 threads in all (x · y · z)');
    expect(stored()).toEqual([]);
  }, 30_000);

  it.skipIf(status.unavailableReason === null)('without a GPU or NVRTC exits 1 with the error code and the reason, and stores nothing', async () => {
    const r = await gpuLab('kernel', 'run', 'saxpy', file, '--data-dir', dataDir, '--lang', 'en');
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/^gpu-lab kernel: (CUDA_UNAVAILABLE|LIBRARY_UNAVAILABLE): .*\S: \S.*$/m);
    if (status.devices.length === 0) expect(r.err).toContain('CUDA_UNAVAILABLE: Kernels run on an NVIDIA GPU, and there is none here');
    expect(stored()).toEqual([]);
  }, 30_000);

  it.skipIf(status.unavailableReason !== null)('on a GPU verifies and times the starter kernel, exit 0, and stores the run', async () => {
    const r = await gpuLab('kernel', 'run', 'saxpy', file, '--size', '100000', '--data-dir', dataDir, '--lang', 'en');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^verified: /m);
    expect(r.out).toMatch(/^your kernel \(my_saxpy\.cu\) +\d/m);
    expect(stored()).toHaveLength(1);
  }, 120_000);
});

// A saxpy run on an H100 as the playground stores it. 12 bytes per element; rate = bytes / median.
const N = 1 << 24;
const BYTES = 12 * N;
const PEAK = 3352;
const throughput = (medianMs: number): NonNullable<KernelRunResult['throughput']> => {
  const rate = BYTES / (medianMs * 1e-3) / 1e9;
  return { medianMs, samplesMs: [medianMs * 0.99, medianMs, medianMs * 1.02], rate, peakFraction: rate / PEAK };
};

const LAUNCH: NonNullable<KernelRunResult['launch']> = {
  grid: [65536, 1, 1],
  block: [256, 1, 1],
  registersPerThread: 16,
  staticSharedBytes: 0,
  localBytesPerThread: 0,
  maxThreadsPerBlock: 1024,
  blocksPerSm: 8,
  activeWarpsPerSm: 64,
  maxWarpsPerSm: 64,
  occupancy: 1,
  threadsLaunched: 1,
};

function saxpyRun(overrides: Partial<KernelRunResult> = {}, status: KernelRun['status'] = 'verified'): KernelRun {
  const comparisons: Comparison[] = [{ id: 'grid-stride-float4', kind: 'reference', title: 'Reference: grid-stride loop over float4', throughput: throughput(0.0668), verified: true, error: null }];
  const result: KernelRunResult = {
    exercise: 'saxpy',
    device: 'cuda:0',
    deviceName: 'NVIDIA H100 80GB HBM3',
    size: N,
    compile: { ok: true, log: '', diagnostics: [], arch: 'sm_90', nvrtcVersion: '12.8', ms: 41.7 },
    launch: LAUNCH,
    verification: {
      ok: true,
      checked: N,
      total: N,
      method: 'every element',
      tolerance: 'relative 0.00001 (floor 0.00001 × RMS)',
      check: 'every-element',
      relativeTolerance: 1e-5,
      samples: null,
      mismatchCount: 0,
      neverWritten: 0,
      mismatches: [],
      maxRelativeError: 5.96e-8,
    },
    throughput: throughput(0.0712),
    comparisons,
    peak: { value: PEAK, unit: 'GB/s' },
    warmup: 3,
    repeats: 20,
    totalMs: 412,
    ...overrides,
  };
  return {
    id: '2025-06-01T10-00-00-000Z-saxpy-abc123',
    exercise: 'saxpy',
    createdAt: '2025-06-01T10:00:00.000Z',
    source: readFileSync(join(root, 'shaders/playground/saxpy.starter.cu'), 'utf8'),
    request: { exercise: 'saxpy', source: '…', device: 'cuda:0', size: N, block: [256, 1, 1], grid: [65536, 1, 1], compare: true, fileName: 'my_saxpy.cu' },
    status,
    result,
    error: null,
  };
}

describe('a finished kernel run as printed', () => {
  it('a verified run: the compile, the launch and occupancy, the verification, and a table with the references', () => {
    const run = saxpyRun();
    const { out, failures } = kernelRunText(run, cx('en'), 'kernels/my_saxpy.cu');
    expect(failures).toEqual([]);
    expect(out).toMatch(/^SAXPY: out = a·x \+ y\nkernels\/my_saxpy\.cu on cuda:0 \(NVIDIA H100 80GB HBM3\), n = 16777216\n/);
    expect(out).toContain('compiled for sm_90 by NVRTC 12.8 in 41.7 ms\n');
    expect(out).toContain('launch: grid (65536, 1, 1), block (256, 1, 1); 16 registers per thread, 0 B of static shared memory\n');
    expect(out).toContain('occupancy 100 %: 8 blocks per SM, 64 of 64 warps\n');
    expect(out).toContain('verified: every element checked, to 1e-5 relative (at least 1e-5 × RMS); max. rel. error 6.0e-8\n');
    const lines = out.split('\n');
    const header = lines.find((l) => l.startsWith('implementation')) ?? '';
    expect(header).toMatch(/^implementation +median +rate +% of peak$/);
    const tp = run.result?.throughput;
    const ref = run.result?.comparisons[0]?.throughput;
    if (!tp || !ref) throw new Error('the test run has no timings');
    const yours = lines.find((l) => l.startsWith('your kernel (my_saxpy.cu)')) ?? '';
    const reference = lines.find((l) => l.startsWith('Reference: grid-stride loop over float4')) ?? '';
    for (const [row, t] of [[yours, tp], [reference, ref]] as const) {
      // Each figure under its heading.
      expect(row.slice(header.indexOf('median')).startsWith(formatMs(t.medianMs, 'en')), row).toBe(true);
      expect(row.slice(header.indexOf('rate')).startsWith(formatRate(t.rate, 'GB/s', 'en')), row).toBe(true);
      expect(row.slice(header.indexOf('% of peak')), row).toBe(formatPercent(t.peakFraction ?? 0, 'en'));
    }
    expect(yours).toMatch(/ 71\.2 µs +2\.828 TB\/s +84 %$/);
    expect(out).toContain('peak of cuda:0: 3.352 TB/s\n');
    expect(out).toContain('median of 20 launches after 3 warm-up; 412 ms from compiling to the last timing\n');
  });

  it('in Spanish, with decimal commas and the references\' titles in Spanish', () => {
    const { out } = kernelRunText(saxpyRun(), cx('es'), 'my_saxpy.cu');
    expect(out).toContain('compilado para sm_90 por NVRTC 12.8 en 41,7 ms\n');
    expect(out).toMatch(/^implementación +mediana +rendimiento +% del pico$/m);
    expect(out).toMatch(/^tu kernel \(my_saxpy\.cu\) +71,2 µs +2,828 TB\/s +\d+ %$/m);
    expect(out).toMatch(/^Referencia: bucle con salto de grid sobre float4 +66,8 µs/m);
    expect(out).toContain('verificado: todos los elementos comprobados, con tolerancia relativa 1e-5 (al menos 1e-5 × RMS); error rel. máx. 6,0e-8\n');
  });

  it('says how the output was checked in its own language, not in the English the run stored it in', () => {
    const sgemm = saxpyRun({
      exercise: 'sgemm',
      size: 2048,
      verification: {
        ok: true,
        checked: 8186,
        total: 2048 * 2048,
        method: '8186 elements against float64 dot products (the last row, the last column, 4096 at random); every element for having been written',
        tolerance: '2.16e-5 × RMS',
        check: 'sampled-gemm',
        relativeTolerance: 8 * Math.sqrt(2048) * 2 ** -24,
        samples: 4096,
        mismatchCount: 0,
        neverWritten: 0,
        mismatches: [],
        maxRelativeError: 1.25e-6,
      },
    });
    const reduction = saxpyRun({
      exercise: 'reduction',
      verification: { ok: true, checked: 1, total: 1, method: `the total of ${N} whole numbers`, tolerance: 'exact', check: 'total', relativeTolerance: 0, samples: null, mismatchCount: 0, neverWritten: 0, mismatches: [], maxRelativeError: 0 },
    });
    const en = kernelRunText(sgemm, cx('en')).out;
    expect(en).toContain('verified: 8186 elements checked (the last row, the last column and 4096 at random against float64 dot products, any other NaN or infinity as wrong), every element for having been written; to 2.16e-5 × RMS; max. rel. error 1.3e-6\n');
    expect(kernelRunText(reduction, cx('en')).out).toContain('verified: the total, exactly; max. rel. error 0\n');
    const es = kernelRunText(sgemm, cx('es')).out;
    expect(es).toContain('verificado: 8186 elementos comprobados (la última fila, la última columna y 4096 al azar con productos escalares en float64, cualquier otro NaN o infinito como incorrecto) y, de todos, que se hayan escrito; con tolerancia 2,16e-5 × RMS; error rel. máx. 1,3e-6\n');
    expect(kernelRunText(reduction, cx('es')).out).toContain('verificado: el total, exactamente; error rel. máx. 0\n');
    for (const out of [es, kernelRunText(saxpyRun(), cx('es')).out]) {
      expect(out).not.toMatch(/every element|dot products|exactly|relative|at random/);
      // Every figure with a decimal comma, the tolerance's and the error's alike.
      expect(out).not.toMatch(/\d\.\d+e-/);
    }
  });

  it('words the check of every recorded run in Spanish, its tolerance with a decimal comma', () => {
    const dir = join(root, 'tests/fixtures/kernel-runs');
    const runs = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => recorded(f));
    const checked = runs.filter((r) => r.result?.verification);
    expect(new Set(checked.map((r) => r.result?.verification?.check))).toEqual(new Set(['every-element', 'total', 'sampled-gemm', 'gemm-crossings']));
    for (const run of checked) {
      const line = kernelRunText(run, cx('es')).out.split('\n').find((l) => /^(verificado|INCORRECTO): /.test(l)) ?? '';
      expect(line, run.id).toMatch(/todos los elementos comprobados|el total|productos escalares en float64/);
      expect(line, run.id).not.toMatch(/every element|dot products|\bexact(ly)?\b|relative|whole numbers|\d\.\d/);
    }
  });

  it('a compile error: each message as FILE:LINE:COL: error: message, no table, and exit status said on stderr', () => {
    const run = saxpyRun(
      {
        compile: {
          ok: false,
          log: 'my_saxpy.cu(4): error: identifier "idx" is undefined\n',
          diagnostics: [
            { line: 4, column: 23, severity: 'error', message: 'identifier "idx" is undefined' },
            { line: 2, column: null, severity: 'warning', message: 'variable "unused" was declared but never referenced' },
          ],
          arch: 'sm_90',
          nvrtcVersion: '12.8',
          ms: 12,
        },
        launch: null,
        verification: null,
        throughput: null,
        comparisons: [],
      },
      'compile-error',
    );
    const { out, failures } = kernelRunText(run, cx('en'), 'src/my_saxpy.cu');
    expect(out).toContain('did not compile for sm_90 (NVRTC 12.8): 1 error\n');
    expect(out).toContain('\nsrc/my_saxpy.cu:4:23: error: identifier "idx" is undefined\n');
    expect(out).toContain('\nsrc/my_saxpy.cu:2: warning: variable "unused" was declared but never referenced\n');
    expect(out).not.toContain('implementation');
    expect(failures).toEqual(['your kernel did not compile: 1 error (above)']);
  });

  it('a compile failure whose log holds no message it could read: the log itself, indented', () => {
    const compile = { ok: false, log: 'nvrtc: error: invalid value for --gpu-architecture (-arch)\n', diagnostics: [], arch: 'sm_200', nvrtcVersion: '12.8', ms: 3 };
    const { out, failures } = kernelRunText(saxpyRun({ compile, launch: null, verification: null, throughput: null, comparisons: [] }, 'compile-error'), cx('en'));
    expect(out).toContain('did not compile for sm_200 (NVRTC 12.8); the compiler\'s log:\n  nvrtc: error: invalid value for --gpu-architecture (-arch)\n');
    expect(failures).toEqual(["your kernel did not compile (the compiler's log is above)"]);
  });

  it('wrong results: the count, the first wrong indices with row and column, "not written" for an element left NaN', () => {
    const n = 4096;
    const wrong = saxpyRun({
      exercise: 'transpose',
      size: n,
      verification: {
        ok: false,
        checked: n * n,
        total: n * n,
        method: 'every element',
        tolerance: 'exact',
        check: 'every-element',
        relativeTolerance: 0,
        samples: null,
        mismatchCount: 4096,
        neverWritten: 4095,
        mismatches: [
          { index: 4095, row: 0, col: 4095, got: 0.25, expected: 0.2500001, unwritten: false },
          { index: 8191, row: 1, col: 4095, got: null, expected: -0.5, unwritten: true },
        ],
        maxRelativeError: null,
      },
      throughput: null,
      comparisons: [],
    }, 'verification-failed');
    const run: KernelRun = { ...wrong, exercise: 'transpose', request: { ...wrong.request, exercise: 'transpose', size: n, fileName: 'my_transpose.cu' } };
    const { out, failures } = kernelRunText(run, cx('en'), 'my_transpose.cu');
    expect(out).toContain(
      `WRONG: 4096 of the ${n * n} elements checked differ from the reference; 4095 of the ${n * n} elements of the output were never written (still the NaN they were filled with); every element checked, exactly; no max. rel. error (an element checked is NaN or infinite, or differs from an expected 0)\n`,
    );
    expect(kernelRunText(run, cx('es'), 'my_transpose.cu').out).toContain(
      `INCORRECTO: 4096 de los ${n * n} elementos comprobados difieren de la referencia; 4095 de los ${n * n} elementos de la salida no se escribieron nunca (siguen con el NaN con que se llenaron); todos los elementos comprobados, exactamente; sin error rel. máx. (un elemento comprobado es NaN o infinito, o difiere de un 0 esperado)\n`,
    );
    // As many digits as it takes to see the difference.
    expect(out).toContain('\n  index 4095 (row 0, col 4095): got 0.25, expected 0.2500001\n');
    expect(out).toContain('\n  index 8191 (row 1, col 4095): not written (still the NaN it was filled with), expected -0.5\n');
    expect(out).toContain('\n  … and 4094 more\n');
    expect(failures).toEqual([
      `VERIFICATION_FAILED: 4096 of the ${n * n} elements checked differ from the reference; 4095 of the ${n * n} elements of the output were never written (still the NaN they were filled with); the first at index 4095`,
    ]);
  });

  it('a run the watchdog stopped: the error code and message, the compute host restarted', () => {
    const run: KernelRun = {
      ...saxpyRun(),
      status: 'failed',
      result: null,
      error: { code: 'TIMEOUT', message: 'The kernel was still running after 5000 ms. The compute host was restarted; nothing else was affected.' },
    };
    const { out, failures } = kernelRunText(run, cx('en'), 'my_saxpy.cu');
    expect(out).toBe('SAXPY: out = a·x + y\nmy_saxpy.cu on cuda:0, n = 16777216\n');
    expect(failures).toEqual(['TIMEOUT: The kernel was still running after 5000 ms. The compute host was restarted; nothing else was affected.']);
  });

  it('a launch with fewer threads than elements says that part of the output may never be written', () => {
    const run = saxpyRun({ launch: { ...LAUNCH, grid: [16384, 1, 1], threadsLaunched: 0.25 } });
    expect(kernelRunText(run, cx('en')).out).toContain('only 0.25 threads per element of the output: unless your kernel loops (grid-stride)');
  });
});

describe('gpu-lab kernel runs', () => {
  it('lists the stored runs newest first, with status, device, median and rate', async () => {
    const dataDir = tempDir('gpu-lab-cli-kernel-runs-');
    const older = { ...saxpyRun(), id: 'older-run', createdAt: '2025-05-01T09:00:00.000Z' };
    const failed: KernelRun = { ...saxpyRun(), id: 'newer-run', createdAt: '2025-06-02T09:00:00.000Z', status: 'failed', result: null, error: { code: 'DEVICE_LOST', message: 'lost' } };
    storeKernelRuns(dataDir, [older, failed]);
    const r = await gpuLab('kernel', 'runs', '--data-dir', dataDir, '--lang', 'en');
    expect(r.code, r.err).toBe(0);
    const rows = r.out.split('\n').filter((l) => l.endsWith('-run') || /-run /.test(l));
    expect(rows[0]).toMatch(/^newer-run +saxpy +2025-06-02 09:00:00Z +failed +cuda:0 +— +—$/);
    expect(rows[1]).toMatch(new RegExp(`^older-run +saxpy +2025-05-01 09:00:00Z +verified +cuda:0 +${formatMs(0.0712, 'en')} +${formatRate(BYTES / 0.0712e-3 / 1e9, 'GB/s', 'en')}$`));
    const json = await gpuLab('kernel', 'runs', '--json', '--exercise', 'sgemm', '--data-dir', dataDir);
    expect(JSON.parse(json.out)).toEqual([]);
  });
});

function storeKernelRuns(dataDir: string, runs: readonly KernelRun[]): void {
  mkdirSync(join(dataDir, 'kernels', 'runs'), { recursive: true });
  for (const run of runs) writeFileSync(join(dataDir, 'kernels', 'runs', `${run.id}.json`), JSON.stringify(run));
}

describe('gpu-lab report --kernel-run', () => {
  it('writes a PDF of kernel runs alone, or after a run with runs report; an unknown kernel run is NOT_FOUND by its id', async () => {
    const dataDir = tempDir('gpu-lab-cli-kernel-report-');
    const run = saxpyRun();
    storeKernelRuns(dataDir, [run]);
    const alone = join(tempDir(), 'kernels.pdf');
    const r = await gpuLab('report', '--kernel-run', run.id, '--pdf', alone, '--author', 'Ana', '--data-dir', dataDir, '--lang', 'en');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^wrote .*kernels\.pdf \(\d+ pages?, \d+ KiB\)$/m);
    const text = pdfText(alone);
    expect(text).toContain(playgroundEn.saxpy.title);
    expect(text).toContain('__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n)');

    const record = fixture('cpu-dtypes');
    mkdirSync(join(dataDir, 'runs'), { recursive: true });
    writeFileSync(join(dataDir, 'runs', `${record.id}.json`), JSON.stringify(record));
    const both = join(tempDir(), 'both.pdf');
    const b = await gpuLab('runs', 'report', record.id, '--kernel-run', run.id, '--pdf', both, '--data-dir', dataDir, '--lang', 'en');
    expect(b.code, b.err).toBe(0);
    const bothText = pdfText(both);
    expect(bothText).toContain(playgroundEn.saxpy.title);
    expect(bothText.indexOf(playgroundEn.saxpy.title)).toBeGreaterThan(bothText.indexOf(record.labTitle));

    const missing = await gpuLab('report', '--kernel-run', 'no-such-run', '--pdf', join(tempDir(), 'x.pdf'), '--data-dir', dataDir, '--lang', 'en');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('NOT_FOUND: There is no kernel run no-such-run');
  }, 60_000);


  it('needs --pdf, and does not go with --all-labs or --device (exit 2)', async () => {
    const dataDir = tempDir();
    expect((await gpuLab('report', '--kernel-run', 'x', '--data-dir', dataDir)).code).toBe(2);
    const withAll = await gpuLab('report', '--all-labs', '--kernel-run', 'x', '--pdf', join(dataDir, 'r.pdf'), '--data-dir', dataDir, '--lang', 'en');
    expect(withAll.code).toBe(2);
    expect(withAll.err).toContain('--kernel-run does not go with --all-labs');
    expect((await gpuLab('report', '--kernel-run', 'x', '--device', 'cuda:0', '--pdf', join(dataDir, 'r.pdf'), '--data-dir', dataDir)).code).toBe(2);
    const runs = await gpuLab('runs', 'report', 'some-run', '--kernel-run', 'x', '--data-dir', dataDir, '--lang', 'en');
    expect(runs).toMatchObject({ code: 2, err: 'gpu-lab runs: --kernel-run needs --pdf FILE\n' });
  });
});

describe('kernel runs recorded by an earlier build, read as the store reads them', () => {
  it('says the error has no value instead of printing the largest float the earlier build stored', () => {
    const run = recorded('h100-saxpy-off-by-one.json');
    const en = kernelRunText(run, cx('en')).out;
    const es = kernelRunText(run, cx('es')).out;
    expect(en).toContain('WRONG: 1 of the 16777216 elements checked differs from the reference; 1 of the 16777216 elements of the output was never written');
    expect(en).toContain('no max. rel. error (an element checked is NaN or infinite, or differs from an expected 0)');
    expect(es).toContain('sin error rel. máx.');
    expect(`${en}${es}`).not.toMatch(/e\+308|308/);
  });

  it('says a NaN total was computed, not left unwritten (the total is set to 0 before the launch)', () => {
    const en = kernelRunText(recorded('h100-reduction-race.json'), cx('en')).out;
    expect(en).toContain('WRONG: 1 of the 1 elements checked differs from the reference;');
    expect(en).toContain('got NaN (written by your kernel)');
    expect(en).not.toContain('never written');
  });

  it('never says more wrong than checked for the SGEMM of issue 24, whose count mixed the two', () => {
    // The sgemm run as the earlier build stored it for the shared-tiles kernel under a 16×16 block.
    const raw = JSON.parse(readFileSync(join(root, 'tests/fixtures/kernel-runs/h100-sgemm-starter.json'), 'utf8')) as { result: { verification: Record<string, unknown> } };
    const v = raw.result.verification;
    Object.assign(v, { ok: false, checked: 12285, mismatchCount: 16542648, maxRelativeError: Number.MAX_VALUE, mismatches: [{ index: 16, row: 0, col: 16, got: null, expected: 1.5 }] });
    const run = KERNEL_RUN.parse({ ...raw, status: 'verification-failed' });
    const { out, failures } = kernelRunText(run, cx('en'));
    expect(out).not.toMatch(/16542648 (elements )?of (the )?12285/);
    expect(out).toContain('an older version recorded this run and counted the wrong elements and those never written together, over the whole output: 16542648 of 16777216; 12285 were compared with the reference');
    expect(out).toContain('max. rel. error not kept (an older version recorded this run)');
    expect(failures[0]).toContain('VERIFICATION_FAILED: an older version recorded this run');
    expect(`${out}${kernelRunText(run, cx('es')).out}`).not.toMatch(/308/);
  });
});
