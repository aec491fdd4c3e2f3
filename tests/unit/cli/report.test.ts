// The report from the command line, through runCli as `gpu-lab` runs it: `runs report <id> [<id2>] --pdf`, `report
// --all-labs --pdf [--device]` and `run <lab> … --pdf`, with --author and --course; their exit codes, the PDF they
// write (read back with pdftotext), and the refusals that leave no file.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import { fixture, fixturesDir, packed, pdfInfo, pdfText, spaced, tempDir } from '../reports/pdf-tools.ts';

// A data folder holding every recorded run, from the H100 and from this machine.
function seeded(): string {
  const dataDir = tempDir('gpu-lab-cli-report-');
  mkdirSync(join(dataDir, 'runs'));
  for (const name of readdirSync(fixturesDir)) {
    const { id } = JSON.parse(readFileSync(join(fixturesDir, name), 'utf8')) as { id: string };
    copyFileSync(join(fixturesDir, name), join(dataDir, 'runs', `${id}.json`));
  }
  return dataDir;
}

async function gpuLab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  // No locale in the environment: English, whatever the machine's.
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, {});
  return { code, out, err };
}

describe('gpu-lab runs report', () => {
  const dataDir = seeded();
  const matmul = fixture('h100-matmul');

  it('writes the report of one run with its author and course', async () => {
    const pdf = join(tempDir(), 'matmul.pdf');
    const r = await gpuLab('runs', 'report', matmul.id, '--pdf', pdf, '--author', 'Laura Llamas López', '--course', 'Programación de GPUs', '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^wrote .*matmul\.pdf \(\d+ pages, \d+ KiB\)$/m);
    const text = spaced(pdfText(pdf));
    expect(text).toContain(`GPU Lab report: ${matmul.labTitle}`);
    expect(text).toContain('Laura Llamas López');
    expect(text).toContain('Programación de GPUs');
    expect(pdfInfo(pdf).Author).toBe('Laura Llamas López');
  });

  it('writes the comparison of two runs', async () => {
    const a = fixture('cpu-matmul');
    const pdf = join(tempDir(), 'compare.pdf');
    const r = await gpuLab('runs', 'report', a.id, matmul.id, '--pdf', pdf, '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    expect(pdfInfo(pdf).Subject).toBe(`${a.labTitle}: run ${a.id} against run ${matmul.id}`);
  });

  it('refuses a run that does not exist with NOT_FOUND and exit 1, writing nothing', async () => {
    const dir = tempDir();
    const r = await gpuLab('runs', 'report', 'no-such-run', '--pdf', join(dir, 'x.pdf'), '--data-dir', dataDir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^gpu-lab runs: NOT_FOUND: /m);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a control character in the author as bad usage (exit 2), before reading any run', async () => {
    const dir = tempDir();
    const r = await gpuLab('runs', 'report', matmul.id, '--pdf', join(dir, 'x.pdf'), '--author', 'bad\u0007name', '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/INVALID_ARGUMENT: The author holds a control character \(U\+0007/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('needs --pdf, and takes it only for a report', async () => {
    expect((await gpuLab('runs', 'report', matmul.id, '--data-dir', dataDir)).code).toBe(2);
    const r = await gpuLab('runs', 'show', matmul.id, '--pdf', 'x.pdf', '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--pdf goes with');
  });

  it('refuses a folder that does not exist as the target, with the reason, as bad input (exit 2)', async () => {
    const r = await gpuLab('runs', 'report', matmul.id, '--pdf', '/nonexistent-folder/x.pdf', '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/INVALID_ARGUMENT: Cannot write the report to \/nonexistent-folder\/x\.pdf: its folder does not exist \(ENOENT\)/);
  });
});

describe('gpu-lab runs report --pdf onto something that is not a regular file', () => {
  const dataDir = seeded();
  const matmul = fixture('h100-matmul');
  const isRoot = process.getuid?.() === 0;

  // What stands at the path before and after: its type, and for a link where it points and what that file holds.
  const state = (path: string): string => {
    const s = lstatSync(path);
    if (s.isSymbolicLink()) return `link -> ${readlinkSync(path)}: ${readFileSync(path, 'utf8')}`;
    return s.isFIFO() ? 'fifo' : s.isCharacterDevice() ? `chardev ${s.rdev}` : s.isFile() ? `file: ${readFileSync(path, 'utf8')}` : 'other';
  };

  const targets: [string, (dir: string) => string, RegExp][] = [
    ['a FIFO', (dir: string) => (execFileSync('mkfifo', [join(dir, 'report.pdf')]), join(dir, 'report.pdf')), /a FIFO/],
    ['a symbolic link', (dir: string) => (writeFileSync(join(dir, 'thesis.pdf'), 'my thesis'), symlinkSync(join(dir, 'thesis.pdf'), join(dir, 'report.pdf')), join(dir, 'report.pdf')), /a symbolic link/],
  ];
  // The same device numbers as /dev/null (1, 3), made in a folder of the test's own; only root may make one.
  if (isRoot) targets.push(['a device node like /dev/null', (dir) => (execFileSync('mknod', [join(dir, 'null'), 'c', '1', '3']), join(dir, 'null')), /a character device/]);

  it.each(targets)('%s: exit 2, the path named, and it is left as it was', async (_, make, kind) => {
    const dir = tempDir();
    const path = make(dir);
    const before = state(path);
    const entries = readdirSync(dir).sort();
    const r = await gpuLab('runs', 'report', matmul.id, '--pdf', path, '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`Cannot write the report to ${path}`);
    expect(r.err).toMatch(kind);
    expect(state(path)).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(entries);
  });

  it('runs export --out and run --json refuse a FIFO the same way, before any work', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'out');
    execFileSync('mkfifo', [fifo]);
    const exported = await gpuLab('runs', 'export', matmul.id, '--format', 'csv', '--out', fifo, '--data-dir', dataDir);
    expect([exported.code, exported.err]).toEqual([2, expect.stringContaining(`Cannot write the export to ${fifo}: it is a FIFO`)]);
    const runData = tempDir();
    const ran = await gpuLab('run', 'vector-function', '--device', 'cpu', '--param', 'elements=1000', '--json', fifo, '--quiet', '--data-dir', runData);
    expect([ran.code, ran.err]).toEqual([2, expect.stringContaining(`Cannot write the run record to ${fifo}: it is a FIFO`)]);
    expect(existsSync(join(runData, 'runs')) ? readdirSync(join(runData, 'runs')) : []).toEqual([]);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});

describe('gpu-lab report --all-labs', () => {
  const dataDir = seeded();

  it.each([
    ['cuda:0', 'h100', 'NVIDIA H100 80GB HBM3'],
    ['cpu', 'cpu', 'Intel(R) Xeon(R) Processor'],
  ])('on %s reports the latest run of each of the seven labs on that device', async (device, prefix, name) => {
    const pdf = join(tempDir(), 'labs.pdf');
    const r = await gpuLab('report', '--all-labs', '--pdf', pdf, '--device', device, '--author', 'Ana', '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    const ids = r.out.trim().split('\n').map((line) => line.split(/\s+/)[1]);
    expect(ids.sort()).toEqual(['transfer', 'dtypes', 'matmul', 'vector-function', 'elementwise-breakeven', 'matmul-breakeven', 'timing-pitfalls'].map((lab) => fixture(`${prefix}-${lab}`).id).sort());
    expect(pdfInfo(pdf).Title).toBe(`GPU Lab report: the labs on ${name}`);
    expect(spaced(pdfText(pdf, 1))).toContain('Contents');
  });

  // A CPU-only machine's run: its GPU series waived for two reasons, each said once under the results table behind a
  // mark, every waived row carrying the mark of its own (once a path-holding sentence in each of 36 rows).
  it.each([
    ['en', 'Results table', 'Findings', 'waived', 'points', 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)'],
    ['es', 'Tabla de resultados', 'Observaciones', 'omitido', 'puntos', 'no hay ningún dispositivo CUDA: no hay ningún controlador de NVIDIA instalado (no se encontró libcuda.so.1)'],
  ])('lists each reason a point was waived for once, under the results table (%s)', async (lang, table, findings, waived, many, noDriver) => {
    const NO_DRIVER = 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)';
    const NO_CUBLAS = 'cuBLAS could not be opened (libcublas.so.12: cannot open shared object file)';
    const run = fixture('cpu-elementwise-breakeven');
    expect(run.points.filter((p) => p.status === 'waived').every((p) => p.reason === NO_DRIVER)).toBe(true);
    const dataDir = tempDir('gpu-lab-cli-report-');
    mkdirSync(join(dataDir, 'runs'));
    // The fixture as read carries the no-driver reason's message (why) for the Spanish reader; the other reason has
    // none, and is said in the host's English.
    const points = run.points.map((p) => (p.status === 'waived' && p.series.endsWith('-resident') ? { ...p, reason: NO_CUBLAS, why: undefined } : p));
    writeFileSync(join(dataDir, 'runs', `${run.id}.json`), JSON.stringify({ ...run, points }));
    const pdf = join(tempDir(), 'labs.pdf');
    const r = await gpuLab('report', '--all-labs', '--pdf', pdf, '--device', 'cpu', '--lang', lang, '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    const text = spaced(pdfText(pdf));
    const section = text.slice(text.indexOf(table), text.indexOf(findings, text.indexOf(table)));
    const times = (part: string): number => packed(section).split(packed(part)).length - 1;
    // The recorded reason, as the reader's language says it (the host's message); the other, unknown, as recorded.
    expect(times(noDriver)).toBe(1);
    expect(times(NO_CUBLAS)).toBe(1);
    expect(section).toContain(`[a] 18 ${many}: ${noDriver}`);
    expect(section).toContain(`[b] 18 ${many}: ${NO_CUBLAS}`);
    expect(section.split(`${waived} [a]`).length - 1).toBe(18);
    expect(section.split(`${waived} [b]`).length - 1).toBe(18);
  });

  it('on a device without runs is NOT_FOUND (exit 1) and writes nothing', async () => {
    const dir = tempDir();
    const r = await gpuLab('report', '--all-labs', '--pdf', join(dir, 'labs.pdf'), '--device', 'cuda:3', '--data-dir', dataDir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/NOT_FOUND: No finished run on cuda:3/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('needs --all-labs and --pdf', async () => {
    expect((await gpuLab('report', '--pdf', 'x.pdf', '--data-dir', dataDir)).code).toBe(2);
    expect((await gpuLab('report', '--all-labs', '--data-dir', dataDir)).code).toBe(2);
  });
});

describe('gpu-lab run … --pdf', () => {
  const small = ['--device', 'cpu', '--param', 'elements=1000', '--param', 'repeats=2', '--quiet'];

  it('runs the lab, then writes its report', async () => {
    const dataDir = tempDir();
    const pdf = join(tempDir(), 'run.pdf');
    const r = await gpuLab('run', 'vector-function', ...small, '--pdf', pdf, '--course', 'Cálculo paralelo', '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    const stored = readdirSync(join(dataDir, 'runs'));
    expect(stored).toHaveLength(1);
    const text = spaced(pdfText(pdf));
    expect(text).toContain(stored[0]?.replace(/\.json$/, ''));
    expect(text).toContain('Cálculo paralelo');
    expect(text).toContain('Course deliverable');
  }, 120_000);

  it('refuses an unwritable path before running anything', async () => {
    const dataDir = tempDir();
    const r = await gpuLab('run', 'vector-function', ...small, '--pdf', '/nonexistent-folder/run.pdf', '--data-dir', dataDir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('INVALID_ARGUMENT: Cannot write the report to /nonexistent-folder/run.pdf');
    expect(existsSync(join(dataDir, 'runs')) ? readdirSync(join(dataDir, 'runs')) : []).toEqual([]);
  });
});
