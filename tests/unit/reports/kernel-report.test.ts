// Kernel playground runs in the PDF report, read back with poppler as a teacher's tools would: a verified SGEMM with
// its source, occupancy, median and every comparison's rate as the run recorded them; a compile error with the
// compiler's line and message; a failed verification with its first mismatch; a run the watchdog stopped, with its
// error; the same in Spanish with decimal commas; kernel runs after a lab run; and the requests a report refuses.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { formatMs, formatPercent, formatRate } from '../../../main/common/pure/format.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { KernelRun } from '../../../main/common/playground.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { comparisonTitle, exerciseDescriptor } from '../../../main/playground/descriptors.ts';
import { KernelStore } from '../../../main/playground/kernel-store.ts';
import { createReportsService } from '../../../main/reports/reports-service.ts';
import { writeReport } from '../../../main/reports/report-writer.ts';
import { pdfKernelRun as kernelRunWords } from '../../../main/common/pure/i18n/en/pdf-kernel-run.ts';
import { pdfKernelRun as kernelRunWordsEs } from '../../../main/common/pure/i18n/es/pdf-kernel-run.ts';
import { defaultSourceRoots } from '../../../main/sources/kernel-sources.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { compileErrorSaxpy, failedTranspose, timedOutReduction, verifiedSgemm } from './kernel-runs.ts';
import { fixture, packed, pdfInfo, pdfText, refusal, savePdf, spaced, tempDir } from './pdf-tools.ts';

const OPTIONS = { author: 'Laura Llamas López', course: 'Programación de GPUs', date: new Date('2026-11-24T10:00:00Z'), writerVersion: '0.1.0' };

async function report(runs: KernelRun[], locale: Locale = 'en'): Promise<{ file: string; text: string; rows: string; pages: number; filename: string; title: string }> {
  const pdf = await writeReport([], runs, { ...OPTIONS, locale });
  const file = savePdf(pdf.bytes);
  // Laid out, a table's row reads back as one line: its name and its figures side by side.
  return { file, text: pdfText(file), rows: spaced(pdfText(file, undefined, { layout: true })), pages: pdf.pages, filename: pdf.filename, title: pdf.title };
}

// The charts drawn into the PDF, as pdfimages lists them.
function imageCount(file: string): number {
  const r = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error(`pdfimages failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout.split('\n').filter((line) => /^\s*\d+\s+\d+\s+image\b/.test(line)).length;
}

function sourceLine(run: KernelRun, has: string): string {
  const line = run.source.split('\n').find((l) => l.includes(has));
  if (!line) throw new Error(`no line with ${has}`);
  return line.trim();
}

describe('a verified SGEMM kernel run', () => {
  const run = verifiedSgemm();
  const result = run.result;
  if (!result?.throughput || !result.launch) throw new Error('the verified run has a result');
  const { throughput, launch } = result;
  const written = report([run]);

  it('is titled by its exercise and says where and how it ran', async () => {
    const { text, rows, title, filename, file } = await written;
    const exercise = await exerciseDescriptor('sgemm', 'en', defaultSourceRoots());
    expect(title).toBe(`GPU Lab kernel run: ${exercise.title}`);
    expect(pdfInfo(file).Title).toBe(title);
    expect(filename).toBe(`${run.id}.pdf`);
    expect(rows).toContain(`Kernel run: ${exercise.title}`);
    expect(rows).toContain(`Device ${result.deviceName} (${result.device})`);
    expect(rows).toContain(`Status ${kernelRunWords.status.verified}`);
    expect(packed(text)).toContain(packed(exercise.statement[0] ?? ''));
    expect(packed(text)).toContain(packed(exercise.work));
  });

  it('prints the source whole, its kernel line numbered', async () => {
    const { rows } = await written;
    const kernel = sourceLine(run, '__global__');
    const number = run.source.split('\n').findIndex((l) => l.includes('__global__')) + 1;
    expect(rows).toContain(`${number} ${kernel}`);
    expect(rows).toContain(sourceLine(run, 'c[static_cast'));
  });

  it('gives the launch, the occupancy and the verification as the run recorded them', async () => {
    const { rows } = await written;
    expect(rows).toContain(`Grid ${launch.grid.join(' × ')}`);
    expect(rows).toContain(`Registers per thread ${launch.registersPerThread}`);
    expect(rows).toContain(`Warps resident per SM ${launch.activeWarpsPerSm} of ${launch.maxWarpsPerSm}`);
    expect(rows).toContain(`Occupancy ${formatPercent(launch.occupancy, 'en')}`);
    expect(rows).toContain('Elements checked 9215 elements checked (the last row, the last column and 1024 at random against float64 dot');
    expect(rows).toContain('Tolerance 3.05e-5 × RMS');
    expect(rows).toContain('Wrong, of those checked 0 of 9215');
    expect(rows).toContain('Never written, of the whole output 0 of 16777216 (16.8 M)');
  });

  it('sets the median and rate of the kernel beside every comparison, in the exercise’s metric, with the chart', async () => {
    const { rows, file } = await written;
    const yours = `Your kernel yours ${formatMs(throughput.medianMs, 'en')} ${formatRate(throughput.rate, 'GFLOP/s', 'en')} ${formatPercent(throughput.peakFraction ?? 0, 'en')}`;
    expect(rows).toContain(yours);
    expect(result.comparisons.length).toBe(4);
    for (const c of result.comparisons) {
      if (!c.throughput) throw new Error(`${c.id} was timed`);
      const figures = `${formatMs(c.throughput.medianMs, 'en')} ${formatRate(c.throughput.rate, 'GFLOP/s', 'en')} ${formatPercent(c.throughput.peakFraction ?? 0, 'en')}`;
      expect(rows).toContain(`${comparisonTitle('sgemm', c.id, 'en')} ${kernelRunWords.throughput.kind[c.kind]} ${figures}`);
    }
    expect(imageCount(file)).toBe(1);
  });
});

describe('a kernel run that did not get to be timed', () => {
  it('a compile error: the diagnostic’s line, column and message, and nothing launched', async () => {
    const run = compileErrorSaxpy();
    const [diagnostic] = run.result?.compile.diagnostics ?? [];
    if (!diagnostic) throw new Error('the run has a diagnostic');
    const { rows, file } = await report([run]);
    expect(rows).toContain(`Status ${kernelRunWords.status.compileError}`);
    expect(rows).toContain(`${diagnostic.line} ${diagnostic.column ?? ''} error ${diagnostic.message}`);
    // The line the compiler names, in the listing under that number.
    expect(rows).toContain(`${diagnostic.line} ${sourceLine(run, 'y[j]')}`);
    expect(rows).not.toContain(kernelRunWords.sections.launch);
    expect(imageCount(file)).toBe(0);
  });

  it('a failed verification: how many elements differ, and the first mismatch by index, row and column', async () => {
    const run = failedTranspose();
    const v = run.result?.verification;
    const first = v?.mismatches[0];
    if (!v || !first) throw new Error('the run has mismatches');
    const { rows } = await report([run]);
    expect(rows).toContain(`${v.mismatchCount} of the ${v.checked} elements checked differ`);
    expect(rows).toContain(`${v.neverWritten} of the ${v.total} elements of the output were never written`);
    expect(rows).toContain('Largest relative error none: an element checked is NaN or infinite');
    expect(rows).toContain('Elements checked every element');
    expect(rows).toContain('Tolerance exact');
    expect(rows).toContain(`${first.index} ${first.row ?? ''} ${first.col ?? ''} not written ${first.expected}`);
    expect(rows).toContain(kernelRunWords.launch.undercovered.slice(0, 40));
    expect(rows).toContain('Your kernel yours — — —');
  });

  it('a kernel the watchdog stopped: its error code and message, and its source', async () => {
    const run = timedOutReduction();
    const { text } = await report([run]);
    expect(packed(text)).toContain(packed(`TIMEOUT: ${run.error?.message ?? '?'}`));
    expect(packed(text)).toContain(packed(kernelRunWords.error.restart));
    expect(spaced(text)).toContain(sourceLine(run, 's /= 1)'));
    expect(text).not.toContain(kernelRunWords.sections.compile);
  });

  it('several kernel runs: a chapter each, on pages of their own', async () => {
    const runs = [verifiedSgemm(), compileErrorSaxpy(), failedTranspose(), timedOutReduction()];
    const { rows, pages, title, filename } = await report(runs);
    expect(title).toBe('GPU Lab kernel runs: 4 exercises');
    expect(filename).toBe('gpu-lab-kernel-runs-2026-11-24.pdf');
    for (const run of runs) expect(rows).toContain(`Kernel run ${run.id}`);
    expect(pages).toBeGreaterThanOrEqual(runs.length);
  });
});

describe('kernel runs in Spanish', () => {
  it('reads in Spanish, every time and rate with a decimal comma', async () => {
    const run = verifiedSgemm();
    const tp = run.result?.throughput;
    if (!tp || !run.result) throw new Error('the run was timed');
    const { rows, title } = await report([run], 'es');
    const exercise = await exerciseDescriptor('sgemm', 'es', defaultSourceRoots());
    expect(title).toBe(`Ejecución de kernel en GPU Lab: ${exercise.title}`);
    expect(rows).toContain(`Estado ${kernelRunWordsEs.status.verified}`);
    const median = formatMs(tp.medianMs, 'es');
    expect(median).toMatch(/^\d+,\d+ ms$/);
    expect(rows).toContain(`Tu kernel el tuyo ${median} ${formatRate(tp.rate, 'GFLOP/s', 'es')}`);
    for (const c of run.result.comparisons) {
      if (!c.throughput) continue;
      const rate = formatRate(c.throughput.rate, 'GFLOP/s', 'es');
      expect(rate).toMatch(/,/);
      expect(rows).toContain(`${comparisonTitle('sgemm', c.id, 'es')} ${kernelRunWordsEs.throughput.kind[c.kind]} ${formatMs(c.throughput.medianMs, 'es')} ${rate}`);
    }
    expect(rows).not.toMatch(/\d\.\d+ (ms|[GT]FLOP\/s)/);
  });

  it('says how the output was checked in Spanish, the tolerance with a decimal comma', async () => {
    const { rows, text } = await report([verifiedSgemm(), failedTranspose()], 'es');
    expect(rows).toContain('Elementos comprobados 9215 elementos comprobados (la última fila, la última columna y 1024 al azar con');
    expect(rows).toContain('Tolerancia 3,05e-5 × RMS');
    expect(rows).toContain('Elementos comprobados todos los elementos');
    expect(rows).toContain('Tolerancia exacta');
    expect(packed(text)).toContain(packed(kernelRunWordsEs.verification.check.sampledGemm.replace('{checked}', '9215').replace('{samples}', '1024')));
    expect(text).not.toMatch(/every element|dot products|at random|3\.05e-5/);
  });

  it('names a compile error and a watchdog stop in Spanish', async () => {
    const compile = compileErrorSaxpy();
    const stopped = timedOutReduction();
    const { rows, text } = await report([compile, stopped], 'es');
    expect(rows).toContain(`error de compilación ${compile.result?.compile.diagnostics[0]?.message ?? '?'}`);
    // The engine's English message is not read to a Spanish reader: its code's sentence stands for it.
    expect(packed(text)).toContain(packed('TIMEOUT: Tardó demasiado y se detuvo.'));
    expect(packed(text)).not.toContain(packed(stopped.error?.message ?? '?'));
    expect(packed(text)).toContain(packed(kernelRunWordsEs.error.restart));
  });
});

async function services(kernelRuns: KernelRun[], records: RunRecord[] = []) {
  const dataDir = tempDir('gpu-lab-kernel-report-');
  const kernels = new KernelStore(dataDir, { warn: () => undefined });
  const store = new RunStore(dataDir, { warn: () => undefined });
  for (const run of kernelRuns) await kernels.save(run);
  for (const record of records) writeFileSync(join(store.dir, `${record.id}.json`), JSON.stringify(record));
  return createReportsService({ getRun: (id) => store.get(id), getKernelRun: (id) => kernels.get(id), runsDir: store.dir, writerVersion: '0.1.0' });
}

describe('the reports service with kernel runs', () => {
  it('writes a lab run followed by stored kernel runs', async () => {
    const record = fixture('cpu-matmul');
    const run = verifiedSgemm();
    const service = await services([run], [record]);
    const pdf = await service.writeReport({ runIds: [record.id], kernelRunIds: [run.id] });
    expect(pdf.filename).toBe(`${record.id}-kernel-runs.pdf`);
    const text = pdfText(savePdf(Buffer.from(pdf.base64, 'base64')));
    const lab = text.indexOf(record.labTitle);
    const chapter = text.indexOf('Kernel run: SGEMM');
    expect(lab).toBeGreaterThanOrEqual(0);
    expect(chapter).toBeGreaterThan(lab);
  });

  it('refuses a kernel run that does not exist, naming it', async () => {
    const service = await services([verifiedSgemm()]);
    const r = await refusal(service.writeReport({ runIds: [], kernelRunIds: [verifiedSgemm().id, 'gone-run'] }));
    expect([r.code, r.details.id]).toEqual(['NOT_FOUND', 'gone-run']);
    expect(r.message).toContain('gone-run');
  });

  it('refuses more than 20 kernel runs, and a report of nothing', async () => {
    const service = await services([]);
    const many = await refusal(service.writeReport({ runIds: [], kernelRunIds: Array.from({ length: 21 }, (_, i) => `run-${i}`) }));
    expect([many.code, many.details.field, many.details.count, many.details.max]).toEqual(['INVALID_ARGUMENT', 'kernelRunIds', 21, 20]);
    const none = await refusal(service.writeReport({ runIds: [], kernelRunIds: [] }));
    expect([none.code, none.details.field]).toEqual(['INVALID_ARGUMENT', 'runIds']);
    expect(none.message).toContain('`runIds`');
    expect((await refusal(service.writeReport({ runIds: [] }))).details.field).toBe('runIds');
  });

  it('refuses something that is not a kernel run, before writing a page', async () => {
    const broken = { ...verifiedSgemm(), status: 'finished' };
    const r = await refusal(writeReport([], [broken]));
    expect([r.code, r.details.reason, r.details.kernelRunId]).toEqual(['INVALID_ARGUMENT', 'not-a-kernel-run', broken.id]);
    expect(r.message).toContain('`status`');
  });
});

// Kernel runs measured on an H100 by the app itself, once they are recorded under tests/fixtures/kernel-runs/.
const realRunsDir = fileURLToPath(new URL('../../fixtures/kernel-runs/', import.meta.url));
const realRuns = existsSync(realRunsDir) ? readdirSync(realRunsDir).filter((n) => n.endsWith('.json')).sort() : [];

describe.skipIf(realRuns.length === 0)('the recorded kernel runs', () => {
  it.each(realRuns)('%s renders, its median printed as the run recorded it', async (name) => {
    const run = JSON.parse(readFileSync(join(realRunsDir, name), 'utf8')) as KernelRun;
    const { rows } = await report([run]);
    expect(rows).toContain(`Kernel run ${run.id}`);
    const tp = run.result?.throughput;
    if (tp) expect(rows).toContain(`Your kernel yours ${formatMs(tp.medianMs, 'en')}`);
  });

  it.each(realRuns)('%s says in Spanish how its output was checked', async (name) => {
    const run = JSON.parse(readFileSync(join(realRunsDir, name), 'utf8')) as KernelRun;
    const v = run.result?.verification;
    if (!v) return;
    const { text } = await report([run], 'es');
    expect(text).not.toMatch(/every element|dot products|at random|whole numbers|\d\.\de-/);
    expect(packed(text)).toContain(packed(kernelRunWordsEs.verification.tolerance));
  });
});
