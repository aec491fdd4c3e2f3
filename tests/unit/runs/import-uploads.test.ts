// The imports service as a page (or anyone holding the server's token) uses it: files declared, sent in parts,
// imported. Held to its caps: the bytes of an upload, each part, the uploads open at once, the order of the parts, a
// file's declared size, and an upload left without parts, dropped with its files.
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { ImportsService } from '../../../main/common/contract/imports.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { UPLOAD_LIMITS, createImportUploads } from '../../../main/runs/import-uploads.ts';
import type { UploadLimits } from '../../../main/runs/import-uploads.ts';
import { importRuns } from '../../../main/runs/run-import.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { tarGz } from './support/archives.ts';

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/runs/cpu-matmul.json', import.meta.url), 'utf8')) as RunRecord;
const record = (id: string): Buffer => Buffer.from(JSON.stringify({ ...fixture, id }));

function service(limits: Partial<UploadLimits> = {}): { imports: ImportsService; dataDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'gpu-lab-uploads-'));
  const store = new RunStore(dataDir, { warn: () => undefined });
  const imports = createImportUploads({ dataDir, importRuns: (sources) => importRuns(sources, { dataDir, store }), limits: { ...UPLOAD_LIMITS, ...limits } });
  return { imports, dataDir };
}

// Sends a file in parts of the service's size, in order.
async function send(imports: ImportsService, id: string, file: number, bytes: Buffer, partBytes: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += partBytes) await imports.sendPart(id, { file, offset: at, base64: bytes.subarray(at, at + partBytes).toString('base64') });
}

async function refusal(call: Promise<unknown>): Promise<GpuLabError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GpuLabError);
  return err as GpuLabError;
}

function staging(dataDir: string): string[] {
  return readdirSync(dataDir).filter((n) => n.startsWith('.import-'));
}

describe('an upload', () => {
  it('imports a folder’s records and an archive sent in parts, and leaves no file of the upload behind', async () => {
    const { imports, dataDir } = service({ partBytes: 4096 });
    const archive = tarGz([{ name: 'a.json', body: record('up-archive') }]);
    const one = record('up-record');
    const { importId, partBytes } = await imports.begin([
      { name: 'up-record.json', bytes: one.length },
      { name: 'runs.tar.gz', bytes: archive.length },
    ]);
    expect(partBytes).toBe(4096);
    await send(imports, importId, 0, one, partBytes);
    await send(imports, importId, 1, archive, partBytes);
    const report = await imports.finish(importId);
    expect(report.sources.map((s) => [s.source, s.imported.map((r) => r.id)])).toEqual([
      ['up-record.json', ['up-record']],
      ['runs.tar.gz', ['up-archive']],
    ]);
    expect(readdirSync(join(dataDir, 'runs')).sort()).toEqual(['up-archive.json', 'up-record.json']);
    expect(staging(dataDir)).toEqual([]);
    expect((await refusal(imports.sendPart(importId, { file: 0, offset: 0, base64: 'AA==' }))).code).toBe('NOT_FOUND');
  });

  it('refuses more bytes than an upload may hold, a name that is not a record’s or an archive’s, and a folder in a name', async () => {
    const { imports, dataDir } = service({ bytes: 1000 });
    expect((await refusal(imports.begin([{ name: 'a.json', bytes: 600 }, { name: 'b.json', bytes: 600 }]))).details).toMatchObject({ field: 'files', limit: 1000 });
    expect((await refusal(imports.begin([{ name: 'evil.sh', bytes: 10 }]))).details).toMatchObject({ field: 'files.0.name' });
    expect((await refusal(imports.begin([{ name: '../../runs/x.json', bytes: 10 }]))).details).toMatchObject({ field: 'files.0.name' });
    expect(staging(dataDir)).toEqual([]);
  });

  it('takes parts in order only, within the size declared, and no larger than a part may be', async () => {
    const { imports } = service({ partBytes: 8 });
    const { importId } = await imports.begin([{ name: 'x.json', bytes: 12 }]);
    expect((await refusal(imports.sendPart(importId, { file: 0, offset: 8, base64: Buffer.from('abcd').toString('base64') }))).details).toMatchObject({ field: 'offset', received: 0 });
    expect((await refusal(imports.sendPart(importId, { file: 0, offset: 0, base64: Buffer.alloc(9).toString('base64') }))).details).toMatchObject({ field: 'base64', limit: 8 });
    expect((await imports.sendPart(importId, { file: 0, offset: 0, base64: Buffer.alloc(8).toString('base64') })).received).toBe(8);
    expect((await refusal(imports.sendPart(importId, { file: 0, offset: 8, base64: Buffer.alloc(8).toString('base64') }))).details).toMatchObject({ field: 'base64', bytes: 16, limit: 12 });
    expect((await refusal(imports.sendPart(importId, { file: 3, offset: 0, base64: 'AA==' }))).details).toMatchObject({ field: 'file' });
    // Not all of it arrived: nothing is imported, and the upload is gone.
    expect((await refusal(imports.finish(importId))).details).toMatchObject({ received: 8, bytes: 12 });
    expect((await refusal(imports.cancel(importId))).code).toBe('NOT_FOUND');
  });

  it('keeps no more uploads open than the cap, and drops one left without parts, with its files', async () => {
    const { imports, dataDir } = service({ open: 2, idleMs: 150 });
    const a = await imports.begin([{ name: 'a.json', bytes: 10 }]);
    await imports.begin([{ name: 'b.json', bytes: 10 }]);
    expect((await refusal(imports.begin([{ name: 'c.json', bytes: 10 }]))).code).toBe('RATE_LIMITED');
    expect(staging(dataDir)).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(staging(dataDir)).toEqual([]);
    expect((await refusal(imports.sendPart(a.importId, { file: 0, offset: 0, base64: 'AA==' }))).code).toBe('NOT_FOUND');
    expect((await imports.begin([{ name: 'c.json', bytes: 10 }])).importId).toMatch(/^u-[0-9a-f]{16}$/);
  });

  it('writes parts that arrive together one after another', async () => {
    const { imports, dataDir } = service({ partBytes: 1024 });
    const body = record('together');
    const { importId } = await imports.begin([{ name: 'together.json', bytes: body.length }]);
    const parts = [];
    for (let at = 0; at < body.length; at += 1024) parts.push(imports.sendPart(importId, { file: 0, offset: at, base64: body.subarray(at, at + 1024).toString('base64') }));
    await Promise.all(parts);
    const report = await imports.finish(importId);
    expect(report.sources[0]?.imported.map((r) => r.id)).toEqual(['together']);
    expect(existsSync(join(dataDir, 'runs', 'together.json'))).toBe(true);
  });
});
