// Importing runs from archives a colleague or an attacker made (support/archives.ts writes them byte by byte): names
// that climb out of the folder or start at /, symbolic and hard links to /etc/passwd, device and FIFO entries, a zip
// whose entries lie about their size, too many entries, and bombs (a zip whose central directory points at one
// inflating entry again and again, a gzip of concatenated members) that must stop at the cap with nothing of the
// archive imported; records that do not match the schema, still running, or under an id another run holds. Whatever
// comes, nothing is written outside the runs folder, no link or device is made, no stored file changes.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import type { ImportedSource } from '../../../main/common/contract/imports.ts';
import { RUN_SCHEMA_VERSION } from '../../../main/common/run-record.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { IMPORT_LIMITS } from '../../../main/runs/import-staging.ts';
import type { ImportLimits, SourceKind } from '../../../main/runs/import-staging.ts';
import { importRuns } from '../../../main/runs/run-import.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { tar, tarGz, tarHeader, zip } from './support/archives.ts';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-vector-function.json', import.meta.url), 'utf8')) as RunRecord;

function record(id: string, change: Partial<RunRecord> = {}): Buffer {
  return Buffer.from(JSON.stringify({ ...fixture, id, ...change }));
}

interface Place {
  dataDir: string;
  runs: string;
  outside: string;
  store: RunStore;
}

// A data folder inside a folder of the test's own, so that anything written beside it (outside) is seen.
function place(): Place {
  const root = mkdtempSync(join(tmpdir(), 'gpu-lab-import-'));
  const dataDir = join(root, 'data');
  const runs = join(dataDir, 'runs');
  mkdirSync(runs, { recursive: true });
  return { dataDir, runs, outside: root, store: new RunStore(dataDir, { warn: () => undefined }) };
}

async function importFile(p: Place, name: string, bytes: Buffer, kind: SourceKind, limits?: ImportLimits): Promise<ImportedSource> {
  const path = join(p.outside, name);
  writeFileSync(path, bytes);
  const report = await importRuns([{ path, kind, name }], { dataDir: p.dataDir, store: p.store, ...(limits ? { limits } : {}) });
  const [source] = report.sources;
  if (!source) throw new Error('no source in the report');
  return source;
}

// Every path under `dir` with what it is: nothing of an import may be a link, a device or a FIFO.
function walk(dir: string): { path: string; kind: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const s = lstatSync(path);
    const kind = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'special';
    return [{ path, kind }, ...(kind === 'folder' ? walk(path) : [])];
  });
}

function storedIds(p: Place): string[] {
  return readdirSync(p.runs).sort();
}

function expectNothingLeftBehind(p: Place): void {
  expect(walk(p.outside).filter((e) => e.kind === 'link' || e.kind === 'special')).toEqual([]);
  expect(readdirSync(p.dataDir).filter((n) => n.startsWith('.import-')), 'staging folders left behind').toEqual([]);
}

// The hostile entries of one archive, each beside a good record.
const HOSTILE_NAMES = ['../../escaped.json', '../escaped.json', '/tmp/gpu-lab-absolute-escape.json', 'runs/../../escaped.json', 'C:\\escaped.json', 'ok\\..\\..\\escaped.json'];

describe('a tar.gz with hostile entries', () => {
  it('imports its good record and leaves out, by name, every entry that climbs out, links or is a device', async () => {
    const p = place();
    const source = await importFile(
      p,
      'hostile.tar.gz',
      tarGz([
        { name: 'good.json', body: record('good-run') },
        ...HOSTILE_NAMES.map((name, i) => ({ name, body: record(`escaped-${i}`) })),
        { name: 'link.json', type: '2', link: '/etc/passwd' },
        { name: 'hard.json', type: '1', link: '/etc/passwd' },
        { name: 'chardev.json', type: '3' },
        { name: 'blockdev.json', type: '4' },
        { name: 'fifo.json', type: '6' },
        { name: 'sub', type: '5' },
        { name: 'notes.txt', body: Buffer.from('not a record') },
      ] as const),
      'tar.gz',
    );
    expect(source.refused).toBeNull();
    expect(source.imported.map((r) => [r.id, r.entry])).toEqual([['good-run', 'good.json']]);
    const reasons = Object.fromEntries(source.skipped.map((s) => [s.entry, s.reason]));
    for (const name of HOSTILE_NAMES) expect(reasons[name], name).toBe('unsafe-name');
    expect(reasons).toMatchObject({ 'link.json': 'link', 'hard.json': 'hardlink', 'chardev.json': 'device', 'blockdev.json': 'device', 'fifo.json': 'fifo' });
    expect(source.otherFiles).toBe(1);
    expect(storedIds(p)).toEqual(['good-run.json']);
    expect(existsSync(join(p.outside, 'escaped.json'))).toBe(false);
    expect(existsSync(join(p.dataDir, 'escaped.json'))).toBe(false);
    expect(existsSync('/tmp/gpu-lab-absolute-escape.json')).toBe(false);
    // No byte of /etc/passwd is in the report.
    expect(JSON.stringify(source)).not.toContain('root:');
    expectNothingLeftBehind(p);
  });

  it('refuses a tar that is not one, and one that wraps a second compressed stream, importing nothing', async () => {
    const p = place();
    const notTar = await importFile(p, 'junk.tar.gz', gzipSync(Buffer.alloc(4096, 7)), 'tar.gz');
    expect(notTar.refused?.reason).toBe('damaged');
    const nested = await importFile(p, 'nested.tar.gz', gzipSync(gzipSync(tar([{ name: 'good.json', body: record('nested-run') }]))), 'tar.gz');
    expect(nested.refused?.reason).toBe('damaged');
    expect(storedIds(p)).toEqual([]);
    expectNothingLeftBehind(p);
  });

  it('leaves out an entry larger than a record may be, and imports the rest', async () => {
    const p = place();
    const limits = { ...IMPORT_LIMITS, entryBytes: 64 * 1024 };
    const source = await importFile(p, 'big.tar', tar([{ name: 'big.json', body: Buffer.alloc(65 * 1024, 32) }, { name: 'good.json', body: record('after-big') }]), 'tar', limits);
    expect(source.skipped).toMatchObject([{ entry: 'big.json', reason: 'too-large', bytes: 65 * 1024, limit: 64 * 1024 }]);
    expect(storedIds(p)).toEqual(['after-big.json']);
  });
});

describe('a zip with hostile entries', () => {
  it('imports its good record and leaves out names that climb out, links, devices and FIFOs', async () => {
    const p = place();
    const source = await importFile(
      p,
      'hostile.zip',
      zip([
        { name: 'runs/good.json', body: record('zip-good') },
        ...HOSTILE_NAMES.map((name, i) => ({ name, body: record(`zip-escaped-${i}`) })),
        { name: 'link.json', body: Buffer.from('/etc/passwd'), mode: 0o120777 },
        { name: 'dev.json', body: Buffer.alloc(0), mode: 0o020644 },
        { name: 'fifo.json', body: Buffer.alloc(0), mode: 0o010644 },
        { name: 'secret.json', body: record('encrypted'), encrypted: true },
      ]),
      'zip',
    );
    expect(source.refused).toBeNull();
    expect(source.imported.map((r) => r.id)).toEqual(['zip-good']);
    const reasons = Object.fromEntries(source.skipped.map((s) => [s.entry, s.reason]));
    for (const name of HOSTILE_NAMES) expect(reasons[name], name).toBe('unsafe-name');
    expect(reasons).toMatchObject({ 'link.json': 'link', 'dev.json': 'device', 'fifo.json': 'fifo', 'secret.json': 'unreadable' });
    expect(storedIds(p)).toEqual(['zip-good.json']);
    expect(existsSync(join(p.outside, 'escaped.json'))).toBe(false);
    expectNothingLeftBehind(p);
  });

  it('refuses, whole, a zip whose entry inflates past the size it declares', async () => {
    const p = place();
    const source = await importFile(p, 'liar.zip', zip([{ name: 'good.json', body: record('before-liar') }, { name: 'liar.json', body: Buffer.alloc(5_000_000), declaredSize: 100 }]), 'zip');
    expect(source.refused?.reason).toBe('damaged');
    expect(source.imported).toEqual([]);
    expect(storedIds(p)).toEqual([]);
    expectNothingLeftBehind(p);
  });

  it('refuses more entries than the cap before reading one', async () => {
    const p = place();
    const entries = Array.from({ length: IMPORT_LIMITS.entries + 1 }, (_, i) => ({ name: `e${i}.txt`, body: Buffer.alloc(0), method: 0 as const }));
    const source = await importFile(p, 'many.zip', zip([{ name: 'good.json', body: record('before-many') }, ...entries]), 'zip');
    expect(source.refused).toMatchObject({ reason: 'too-many-entries', count: IMPORT_LIMITS.entries + 2, limit: IMPORT_LIMITS.entries });
    expect(storedIds(p)).toEqual([]);
  });
});

describe('bombs', () => {
  // 60 MiB of zeros inflate from 60 KiB; listed 20 times over, they would be 1.2 GB.
  const ZEROS = Buffer.alloc(60 * 1024 * 1024);

  it('refuses a zip bomb (one inflating entry listed over and over) from its directory, inflating nothing, importing nothing', async () => {
    const p = place();
    const bomb = zip([{ name: 'good.json', body: record('before-the-bomb') }, { name: 'zeros.json', body: ZEROS }], 20);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const source = await importFile(p, 'bomb.zip', bomb, 'zip');
    expect(source.refused).toMatchObject({ reason: 'too-large', limit: IMPORT_LIMITS.totalBytes, count: 21 * ZEROS.length + record('before-the-bomb').length });
    expect(source.imported).toEqual([]);
    expect(storedIds(p)).toEqual([]);
    expectNothingLeftBehind(p);
  });

  it('refuses a zip whose records together declare more than the cap, importing nothing', async () => {
    const p = place();
    const limits = { ...IMPORT_LIMITS, totalBytes: 32 * 1024 * 1024 };
    const liars = Array.from({ length: 40 }, (_, i) => ({ name: `liar-${i}.json`, body: Buffer.alloc(1024 * 1024), declaredSize: 1024 * 1024 }));
    const source = await importFile(p, 'liars.zip', zip([{ name: 'good.json', body: record('before-the-liars') }, ...liars]), 'zip', limits);
    expect(source.refused).toMatchObject({ reason: 'too-large', limit: limits.totalBytes });
    expect(source.imported).toEqual([]);
    expect(storedIds(p)).toEqual([]);
  });

  it('stops a tar.gz bomb (one gzip member repeated) at the cap on uncompressed bytes, with nothing imported', async () => {
    const p = place();
    // A cap lower than the shipped one keeps the test short; the code path is the same.
    const limits = { ...IMPORT_LIMITS, totalBytes: 128 * 1024 * 1024 };
    const member = gzipSync(Buffer.concat([tarHeader({ name: 'zeros.json', size: ZEROS.length }), ZEROS]));
    const good = gzipSync(tar([{ name: 'good.json', body: record('before-the-gz-bomb') }], false));
    const bomb = Buffer.concat([good, ...Array.from({ length: 20 }, () => member), gzipSync(Buffer.alloc(1024))]);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const source = await importFile(p, 'bomb.tar.gz', bomb, 'tar.gz', limits);
    expect(source.refused).toMatchObject({ reason: 'too-large', limit: limits.totalBytes });
    // It read no further than the cap and one more chunk of the inflater.
    expect(source.refused?.count ?? 0).toBeGreaterThan(limits.totalBytes);
    expect(source.refused?.count ?? 0).toBeLessThanOrEqual(limits.totalBytes + 1024 * 1024);
    expect(storedIds(p)).toEqual([]);
    expectNothingLeftBehind(p);
  }, 30_000);

  it('counts a tar’s entries against the cap', async () => {
    const p = place();
    const limits = { ...IMPORT_LIMITS, entries: 50 };
    const entries = Array.from({ length: 51 }, (_, i) => ({ name: `e${i}.txt`, body: Buffer.from('x') }));
    const source = await importFile(p, 'many.tar', tar([{ name: 'good.json', body: record('before-many-tar') }, ...entries]), 'tar', limits);
    expect(source.refused).toMatchObject({ reason: 'too-many-entries', limit: 50 });
    expect(storedIds(p)).toEqual([]);
  });
});

describe('the records in what is imported', () => {
  it('names a record that does not match the schema, one that is not JSON and one still running, and imports the rest', async () => {
    const p = place();
    const { environment: _environment, ...noEnvironment } = fixture;
    const source = await importFile(
      p,
      'mixed.tgz',
      tarGz([
        { name: 'no-environment.json', body: Buffer.from(JSON.stringify({ ...noEnvironment, id: 'no-env' })) },
        { name: 'bad-status.json', body: record('bad-status', { status: 'exploded' as RunRecord['status'] }) },
        { name: 'not.json', body: Buffer.from('{"id": "not-json",') },
        { name: 'running.json', body: record('still-running', { status: 'running', finishedAt: null }) },
        { name: 'fine.json', body: record('fine-run') },
      ]),
      'tar.gz',
    );
    const skipped = Object.fromEntries(source.skipped.map((s) => [s.entry, s]));
    expect(skipped['no-environment.json']).toMatchObject({ reason: 'not-a-run', field: 'environment' });
    expect(skipped['bad-status.json']).toMatchObject({ reason: 'not-a-run', field: 'status' });
    expect(skipped['not.json']?.reason).toBe('not-json');
    expect(skipped['running.json']?.reason).toBe('running');
    expect(storedIds(p)).toEqual(['fine-run.json']);
  });

  it('imports a record of schema version 1 read in this version’s words, and refuses a newer version naming both', async () => {
    const p = place();
    expect(fixture.schemaVersion).toBe(1);
    const source = await importFile(
      p,
      'versions.tgz',
      tarGz([
        { name: 'version-1.json', body: record('version-1') },
        { name: 'version-9.json', body: record('version-9', { schemaVersion: 9 as RunRecord['schemaVersion'] }) },
        // Version 2 words only: a point that says `timer` and no `clock` is not a version 2 record.
        { name: 'mixed-words.json', body: record('mixed-words', { schemaVersion: RUN_SCHEMA_VERSION }) },
      ]),
      'tar.gz',
    );
    const skipped = Object.fromEntries(source.skipped.map((s) => [s.entry, s]));
    expect(skipped['version-9.json']).toMatchObject({ reason: 'not-a-run', field: 'schemaVersion' });
    expect(skipped['version-9.json']?.detail).toMatch(new RegExp(`schema version 9.*reads versions 1 to ${RUN_SCHEMA_VERSION}`));
    expect(skipped['mixed-words.json']).toMatchObject({ reason: 'not-a-run', field: 'points.0.clock' });
    expect(storedIds(p)).toEqual(['version-1.json']);
    const imported = await p.store.get('version-1');
    expect(imported.schemaVersion).toBe(RUN_SCHEMA_VERSION);
    // The CPU's measured points read on the host's clock, as version 1's timer 'host' without device times said.
    expect(new Set(imported.points.filter((pt) => pt.status === 'ok').map((pt) => `${pt.device} ${pt.clock}`))).toEqual(new Set(['cpu host']));
  });

  it('skips the same run already stored, keeps a different run with a taken id under a new one, and changes no stored file', async () => {
    const p = place();
    const stored = record('taken-id');
    writeFileSync(join(p.runs, 'taken-id.json'), stored);
    // Not a record at all, but a file of the name an imported run would take.
    writeFileSync(join(p.runs, 'squatted.json'), 'garbage');
    const other = record('taken-id', { warnings: ['measured elsewhere'] });
    const source = await importFile(
      p,
      'dups.zip',
      zip([
        { name: 'same.json', body: stored },
        { name: 'other.json', body: other },
        { name: 'other-again.json', body: other },
        { name: 'twin-a.json', body: record('twin') },
        { name: 'twin-b.json', body: record('twin', { warnings: ['the other twin'] }) },
        { name: 'squatter.json', body: record('squatted') },
      ]),
      'zip',
    );
    expect(source.identical).toEqual([
      { id: 'taken-id', entry: 'same.json' },
      { id: expect.stringMatching(/^taken-id-imported-[0-9a-f]{6}$/), entry: 'other-again.json' },
    ]);
    const byEntry = Object.fromEntries(source.imported.map((r) => [r.entry, r]));
    expect(byEntry['other.json']).toMatchObject({ was: 'taken-id', id: expect.stringMatching(/^taken-id-imported-/) });
    expect(byEntry['twin-a.json']).toMatchObject({ id: 'twin', was: null });
    expect(byEntry['twin-b.json']).toMatchObject({ was: 'twin', id: expect.stringMatching(/^twin-imported-/) });
    expect(byEntry['squatter.json']).toMatchObject({ was: 'squatted', id: expect.stringMatching(/^squatted-imported-/) });
    // The stored files are as they were, byte for byte; the renamed ones hold their new id.
    expect(readFileSync(join(p.runs, 'taken-id.json'))).toEqual(stored);
    expect(readFileSync(join(p.runs, 'squatted.json'), 'utf8')).toBe('garbage');
    for (const r of source.imported) {
      const kept = JSON.parse(readFileSync(join(p.runs, `${r.id}.json`), 'utf8')) as RunRecord;
      expect(kept.id).toBe(r.id);
    }
    expect((await p.store.get(byEntry['other.json']?.id ?? '')).warnings).toEqual(['measured elsewhere']);
  });

  it('imports nothing new the second time the same archive comes', async () => {
    const p = place();
    const archive = tarGz([
      { name: 'a.json', body: record('again-a') },
      { name: 'b.json', body: record('again-b') },
    ]);
    const first = await importFile(p, 'again.tgz', archive, 'tar.gz');
    expect(first.imported).toHaveLength(2);
    const before = storedIds(p);
    const second = await importFile(p, 'again.tgz', archive, 'tar.gz');
    expect(second.imported).toEqual([]);
    expect(second.identical.map((r) => r.id).sort()).toEqual(['again-a', 'again-b']);
    expect(storedIds(p)).toEqual(before);
  });

  it('reads a data folder’s runs/, skipping its links and special files, and a folder of records', async () => {
    const p = place();
    const other = mkdtempSync(join(tmpdir(), 'gpu-lab-other-data-'));
    mkdirSync(join(other, 'runs'));
    writeFileSync(join(other, 'runs', 'theirs.json'), record('from-their-folder'));
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/etc/passwd', join(other, 'runs', 'passwd.json'));
    const report = await importRuns([{ path: other, kind: 'folder', name: other }], { dataDir: p.dataDir, store: p.store });
    const [source] = report.sources;
    expect(source?.imported.map((r) => r.id)).toEqual(['from-their-folder']);
    expect(source?.skipped).toMatchObject([{ entry: 'passwd.json', reason: 'link' }]);
    expect(JSON.stringify(report)).not.toContain('root:');
    expectNothingLeftBehind(p);
  });
});
