// The reference results GPU Lab ships (main/common/reference-table.ts) are what scripts/reference-table.mjs makes of
// the recorded runs, not numbers typed by hand: the committed table is the script's output, every entry passes the
// schema, and each number is the recorded point's (its median and 95 % interval as this version computes them from
// the samples). And the references a teacher adds to a data folder are read as every file there is: regular files
// only, under a cap, checked, a bad one skipped with a warning.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { estimateOf } from '../../../main/common/pure/claims.ts';
import { REFERENCE_RUN } from '../../../main/common/reference-run.ts';
import { REFERENCE_TABLE } from '../../../main/common/reference-table.ts';
import { withCurrentFindings } from '../../../main/runs/current-findings.ts';
import { MAX_REFERENCE_BYTES, referenceResults } from '../../../main/runs/reference-store.ts';
import { STORED_RECORD } from '../../../main/runs/stored-record.ts';
import { TABLE_PATH, fixtureRecords, referenceTableText } from '../../../scripts/reference-table.mjs';

describe('the shipped reference table', () => {
  it('is what scripts/reference-table.mjs writes from the recorded runs', () => {
    expect(readFileSync(TABLE_PATH, 'utf8')).toBe(referenceTableText(fixtureRecords()));
  });

  it('holds a reference of every lab for each GPU model, each passing the schema', () => {
    for (const r of REFERENCE_TABLE) expect(REFERENCE_RUN.safeParse(r).error).toBeUndefined();
    const models = [...new Set(REFERENCE_TABLE.map((r) => r.machine.gpu))];
    expect(models).toContain('NVIDIA H100 80GB HBM3');
    for (const model of models) expect(REFERENCE_TABLE.filter((r) => r.machine.gpu === model).map((r) => r.lab).sort()).toEqual(['dtypes', 'elementwise-breakeven', 'matmul', 'matmul-breakeven', 'timing-pitfalls', 'transfer', 'vector-function']);
  });

  it('says of each point what its recorded run measured: its median and interval from the samples, on its clock', () => {
    const records = fixtureRecords().map((path) => withCurrentFindings(STORED_RECORD.parse(JSON.parse(readFileSync(path, 'utf8')))));
    for (const reference of REFERENCE_TABLE) {
      const record = records.find((r) => r.id === reference.runId);
      expect(record, reference.runId).toBeDefined();
      for (const point of reference.points) {
        const measured = record?.points.find((p) => p.key === point.key);
        const e = estimateOf(measured);
        expect([point.median, point.low, point.high, point.samples], point.key).toEqual([e?.median, e?.low, e?.high, e?.samples]);
        expect(point.clock, point.key).toBe(measured?.clock);
        expect(point.low).toBeLessThanOrEqual(point.median);
        expect(point.high).toBeGreaterThanOrEqual(point.median);
      }
      // Each series at its largest size: the transfer lab's 1 GiB copies, the matrix product's N = 7000.
      if (reference.lab === 'transfer') expect(new Set(reference.points.map((p) => p.x))).toEqual(new Set([2 ** 30]));
    }
    // The clock stopped at the launch is named so, not as the host's clock after a synchronise.
    expect(REFERENCE_TABLE.find((r) => r.lab === 'timing-pitfalls')?.points.find((p) => p.key === 'gpu-no-sync')?.clock).toBe('host-nosync');
  });
});

describe('a data folder’s references', () => {
  it('adds the valid ones to the shipped, skipping by name a bad one, a link and one over the cap', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-references-'));
    const dir = join(dataDir, 'references');
    mkdirSync(dir);
    const shipped = REFERENCE_TABLE.find((r) => r.lab === 'matmul');
    if (!shipped) throw new Error('no shipped matmul reference');
    const theirs = { ...shipped, runId: 'their-h200-run', machine: { ...shipped.machine, gpu: 'NVIDIA H200' } };
    writeFileSync(join(dir, 'h200.json'), JSON.stringify(theirs));
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ ...theirs, points: 'none' }));
    writeFileSync(join(dir, 'huge.json'), Buffer.alloc(MAX_REFERENCE_BYTES + 1, 32));
    symlinkSync('/etc/passwd', join(dir, 'passwd.json'));
    const warnings: string[] = [];
    const results = await referenceResults('matmul', dataDir, (m) => warnings.push(m));
    expect(results.map((r) => [r.origin, r.reference.machine.gpu])).toEqual([
      ['shipped', 'NVIDIA H100 80GB HBM3'],
      ['data-folder', 'NVIDIA H200'],
    ]);
    expect(warnings.some((w) => w.includes('broken.json') && w.includes('points'))).toBe(true);
    expect(warnings.some((w) => w.includes('huge.json'))).toBe(true);
    expect(warnings.some((w) => w.includes('passwd.json') && w.includes('symbolic link'))).toBe(true);
    expect(warnings.join('\n')).not.toContain('root:');
    expect(await referenceResults('transfer', dataDir, () => undefined)).toHaveLength(1);
  });

  it('reads a reference of version 1 with its points’ clocks in the measurement’s words, and skips a newer version naming it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-references-'));
    const dir = join(dataDir, 'references');
    mkdirSync(dir);
    const shipped = REFERENCE_TABLE.find((r) => r.lab === 'matmul');
    if (!shipped) throw new Error('no shipped matmul reference');
    const points = shipped.points.map(({ clock, ...p }) => ({ ...p, timer: clock === 'events' ? 'device' : 'host' }));
    writeFileSync(join(dir, 'version-1.json'), JSON.stringify({ ...shipped, version: 1, runId: 'v1-run', machine: { ...shipped.machine, gpu: 'NVIDIA A100' }, points }));
    writeFileSync(join(dir, 'version-3.json'), JSON.stringify({ ...shipped, version: 3, runId: 'v3-run' }));
    const warnings: string[] = [];
    const results = await referenceResults('matmul', dataDir, (m) => warnings.push(m));
    const read = results.find((r) => r.reference.runId === 'v1-run')?.reference;
    expect(read?.version).toBe(2);
    expect(read?.points.map((p) => [p.key, p.clock])).toEqual(shipped.points.map((p) => [p.key, p.clock]));
    expect(results.some((r) => r.reference.runId === 'v3-run')).toBe(false);
    expect(warnings.some((w) => w.includes('version-3.json') && /version 3; this GPU Lab reads versions 1 to 2/.test(w))).toBe(true);
  });

  it('does not follow a references folder that is a link out of the data folder', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'gpu-lab-elsewhere-'));
    const shipped = REFERENCE_TABLE.find((r) => r.lab === 'matmul');
    if (!shipped) throw new Error('no shipped matmul reference');
    writeFileSync(join(elsewhere, 'planted.json'), JSON.stringify({ ...shipped, runId: 'planted', machine: { ...shipped.machine, gpu: 'Planted GPU' } }));
    const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-references-'));
    symlinkSync(elsewhere, join(dataDir, 'references'));
    const warnings: string[] = [];
    const results = await referenceResults('matmul', dataDir, (m) => warnings.push(m));
    expect(results.map((r) => r.origin)).toEqual(['shipped']);
    expect(warnings).toEqual([`not reading ${join(dataDir, 'references')}: it is a symbolic link (not followed)`]);
  });
});
