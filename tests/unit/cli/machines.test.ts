// Runs of many machines from the command line, through runCli as `gpu-lab` runs it: `runs import` (what it says of
// each entry, its exit codes, a path that is not there or is a FIFO), `runs export --reference` and the reference it
// writes, shown in another run's PDF as another machine's, and `report --devices` (the PDF of one lab across two GPUs,
// read back with pdftotext, in English and Spanish, and its refusals).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from '../../../main/cli/main.ts';
import { REFERENCE_RUN } from '../../../main/common/reference-run.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { timedStatistics } from '../../../main/common/pure/statistics.ts';
import { fixture, pdfText, spaced, tempDir } from '../reports/pdf-tools.ts';
import { tarGz } from '../runs/support/archives.ts';

async function gpuLab(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) }, {});
  return { code, out, err };
}

function dataFolder(records: readonly RunRecord[] = []): string {
  const dataDir = tempDir('gpu-lab-cli-machines-');
  mkdirSync(join(dataDir, 'runs'));
  for (const r of records) writeFileSync(join(dataDir, 'runs', `${r.id}.json`), JSON.stringify(r));
  return dataDir;
}

// The recorded H100 matrix product as another GPU measured it: another model and UUID, every sample `scale` times.
function onAnotherGpu(record: RunRecord, name: string, scale: number): RunRecord {
  const devices = record.environment.devices;
  return {
    ...record,
    id: `${record.id}-${name.replace(/\W+/g, '-').toLowerCase()}`,
    environment: {
      ...record.environment,
      gpuUuid: `GPU-${name.length}`,
      slurm: { jobId: '812', arrayTaskId: 1, stepId: null, node: 'gpu07', cluster: null },
      devices: devices ? { ...devices, devices: devices.devices.map((d) => (d.kind === 'cuda' ? { ...d, name } : d)) } : null,
    },
    // Its statistics and rates as the runner would have recorded them of the scaled samples (a record is read as stored).
    points: record.points.map((p) => {
      const scaled = { ...p, hostMs: p.hostMs.map((ms) => ms * scale), deviceMs: p.deviceMs?.map((ms) => ms * scale) ?? null };
      const rate = (r: number | null): number | null => (r === null ? null : r / scale);
      return { ...scaled, stats: p.stats ? timedStatistics(scaled) : null, gflops: rate(p.gflops), gbps: rate(p.gbps) };
    }),
  };
}

describe('gpu-lab runs import', () => {
  it('imports an archive, names what it left out and why, and exits 1 for it', async () => {
    const dataDir = dataFolder();
    const archive = join(tempDir(), 'colleague.tar.gz');
    const good = fixture('cpu-matmul');
    writeFileSync(archive, tarGz([{ name: 'runs/good.json', body: Buffer.from(JSON.stringify(good)) }, { name: '../../etc/cron.d/evil.json', body: Buffer.from('{}') }, { name: 'runs/link.json', type: '2', link: '/etc/shadow' }]));
    const r = await gpuLab('runs', 'import', archive, '--data-dir', dataDir);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain(`imported ${good.id} (matmul on cpu)`);
    expect(r.out).toContain('left out ../../etc/cron.d/evil.json: its name leads out of the folder');
    expect(r.out).toContain('left out runs/link.json: a symbolic link, neither followed nor created');
    expect(r.out).toContain(`${archive}: 1 imported, 0 already here, 2 left out`);
    expect(readdirSync(join(dataDir, 'runs'))).toEqual([`${good.id}.json`]);
    // Again: nothing new, said in Spanish, still exit 1 for what it leaves out.
    const again = await gpuLab('runs', 'import', archive, '--data-dir', dataDir, '--lang', 'es');
    expect(again.out).toContain(`ya estaba aquí: runs/good.json es la ejecución ${good.id}`);
    expect(again.code).toBe(1);
  });

  it('exits 0 when every record was imported or already here, and prints the report as JSON with --json', async () => {
    // The run as `runs export` writes it (its findings derived again by this version) is the stored one all the same.
    const dataDir = dataFolder([fixture('cpu-dtypes')]);
    const folder = tempDir();
    for (const name of ['cpu-dtypes', 'cpu-transfer']) copyFileSync(join('tests/fixtures/runs', `${name}.json`), join(folder, `${name}.json`));
    const r = await gpuLab('runs', 'import', folder, '--json', '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { sources: { imported: { id: string }[]; identical: { id: string }[] }[] };
    expect(report.sources[0]?.imported.map((x) => x.id)).toEqual([fixture('cpu-transfer').id]);
    expect(report.sources[0]?.identical.map((x) => x.id)).toEqual([fixture('cpu-dtypes').id]);
  });

  it('refuses a path that is not there, a FIFO and a file of another kind before importing anything (exit 2)', async () => {
    const dataDir = dataFolder();
    const dir = tempDir();
    const fifo = join(dir, 'stuck.zip');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(fixture('cpu-matmul')));
    for (const bad of [join(dir, 'missing.tgz'), fifo, join(dir, 'notes.txt')]) {
      const r = await gpuLab('runs', 'import', good, bad, '--data-dir', dataDir);
      expect(r.code, bad).toBe(2);
      expect(r.err).toContain(bad);
    }
    expect(readdirSync(join(dataDir, 'runs'))).toEqual([]);
    expect((await gpuLab('runs', 'import', '--data-dir', dataDir)).code).toBe(2);
  });
});

describe('gpu-lab runs export --reference', () => {
  it('writes the run’s headline numbers as a reference, which another run’s report then shows as another machine’s', async () => {
    const h100 = fixture('h100-matmul');
    const h200 = onAnotherGpu(h100, 'NVIDIA H200', 0.8);
    const dataDir = dataFolder([h100, h200]);
    mkdirSync(join(dataDir, 'references'));
    const file = join(dataDir, 'references', 'h200-matmul.json');
    const r = await gpuLab('runs', 'export', h200.id, '--reference', '--out', file, '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    const reference = REFERENCE_RUN.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(reference).toMatchObject({ lab: 'matmul', runId: h200.id, machine: { gpu: 'NVIDIA H200', node: null } });
    expect(reference.points.map((p) => p.key)).toEqual(h100.points.map((p) => p.key));
    expect((await gpuLab('runs', 'export', h200.id, '--reference', '--format', 'csv', '--data-dir', dataDir)).code).toBe(2);

    const pdf = join(tempDir(), 'h100.pdf');
    expect((await gpuLab('runs', 'report', h100.id, '--pdf', pdf, '--data-dir', dataDir)).code).toBe(0);
    const text = spaced(pdfText(pdf));
    expect(text).toContain('Other machines’ results');
    expect(text).toContain('NVIDIA H200 · driver');
    expect(text).toContain('from the data folder’s references');
    // The H200 took 0.8 of the H100's time on every sample: the H100's run is slower, said so where the intervals part.
    expect(text).toMatch(/slower, 1\.2\d?× its time/);
    // The shipped H100 reference is the very run reported: it is not shown beside itself.
    expect(text).not.toContain('shipped with GPU Lab');
  });
});

describe('gpu-lab report --devices', () => {
  const h100 = fixture('h100-matmul');
  const h200 = onAnotherGpu(h100, 'NVIDIA H200', 0.5);

  it('writes one lab across two GPUs, each named with its driver and node, the second read against the first', async () => {
    const dataDir = dataFolder([h100, h200, fixture('cpu-matmul')]);
    const pdf = join(tempDir(), 'devices.pdf');
    const r = await gpuLab('report', '--devices', '--lab', 'matmul', '--pdf', pdf, '--data-dir', dataDir);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim().split('\n')).toEqual([
      `matmul                 ${h100.id}  NVIDIA H100 80GB HBM3`,
      `matmul                 ${h200.id}  NVIDIA H200 · gpu07`,
      `matmul                 ${fixture('cpu-matmul').id}  Intel(R) Xeon(R) Processor`,
    ]);
    const text = spaced(pdfText(pdf));
    expect(text).toContain('Matrix product');
    expect(text).toContain('NVIDIA H100 80GB HBM3 (cuda:0)');
    expect(text).toContain('NVIDIA H200 (cuda:0)');
    expect(text).toContain('gpu07');
    expect(text).toContain('580.159.04');
    // Half the time on every sample: 0.5× A's, faster.
    expect(text).toMatch(/0\.50× \(0\.\d+× – 0\.\d+×\) faster/);
    // The CPU-only run measured its matrix at another N: named, not compared.
    expect(text).toContain('another size, not compared');
  });

  it('writes every lab with a run in Spanish', async () => {
    const dataDir = dataFolder([h100, h200, fixture('h100-transfer')]);
    const pdf = join(tempDir(), 'dispositivos.pdf');
    const r = await gpuLab('report', '--devices', '--pdf', pdf, '--data-dir', dataDir, '--lang', 'es');
    expect(r.code, r.err).toBe(0);
    const text = spaced(pdfText(pdf));
    expect(text).toContain('Laboratorios en varios dispositivos');
    expect(text).toContain('más rápido');
    expect(r.out).toContain('transfer');
  });

  it('refuses what does not go with it, and a folder with no run', async () => {
    const dataDir = dataFolder([h100]);
    const pdf = join(tempDir(), 'no.pdf');
    expect((await gpuLab('report', '--devices', '--all-labs', '--pdf', pdf, '--data-dir', dataDir)).code).toBe(2);
    expect((await gpuLab('report', '--devices', '--device', 'cpu', '--pdf', pdf, '--data-dir', dataDir)).code).toBe(2);
    expect((await gpuLab('report', '--devices', '--lab', 'nope', '--pdf', pdf, '--data-dir', dataDir)).code).toBe(2);
    expect((await gpuLab('report', '--all-labs', '--lab', 'matmul', '--pdf', pdf, '--data-dir', dataDir)).code).toBe(2);
    const empty = await gpuLab('report', '--devices', '--pdf', pdf, '--data-dir', dataFolder());
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('NOT_FOUND');
    expect(existsSync(pdf)).toBe(false);
  });
});
