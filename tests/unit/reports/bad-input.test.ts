// What a report refuses, each with its error code and the reason in its details, and without leaving a file behind:
// a path that cannot be written, a run that was deleted, a run still in progress, an author or course too long or
// holding control characters, a record of an older schema. (atomic-write.test.ts: a write that fails half-way.)
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { RUN_SCHEMA_VERSION } from '../../../main/common/run-record.ts';
import { OLDEST_RUN_SCHEMA_VERSION } from '../../../main/common/run-record-read.ts';
import { writeFileAtomic } from '../../../main/runs/atomic-write.ts';
import { createReportsService } from '../../../main/reports/reports-service.ts';
import { writeRunReport } from '../../../main/reports/report-writer.ts';
import { RunStore } from '../../../main/runs/run-store.ts';
import { fixture, refusal, tempDir } from './pdf-tools.ts';

function storeWith(...records: object[]): { store: RunStore; dir: string } {
  const dir = tempDir('gpu-lab-report-store-');
  const store = new RunStore(dir, { warn: () => undefined });
  for (const r of records) writeFileSync(join(store.dir, `${(r as { id: string }).id}.json`), JSON.stringify(r));
  return { store, dir };
}

function service(store: RunStore) {
  return createReportsService({ getRun: (id) => store.get(id), runsDir: store.dir, writerVersion: '0.1.0' });
}

describe('the author and course fields', () => {
  const record = fixture('cpu-matmul');
  const { store } = storeWith(record);

  it.each([
    ['a 100 000-character author', { author: 'x'.repeat(100_000) }, 'text-too-long', /The author is 100000 characters long; a report takes at most 200/],
    ['a NUL in the course', { course: 'GPU\u0000course' }, 'text-control-characters', /The course holds a control character \(U\+0000 at position 4\)/],
    ['an escape sequence in the author', { author: '\u001b[31mred' }, 'text-control-characters', /U\+001B/],
    ['a newline in the author', { author: 'Ana\nBelén' }, 'text-control-characters', /U\+000A/],
    ['a right-to-left override in the course', { course: 'abc\u202Efdp.exe' }, 'text-control-characters', /U\+202E/],
    ['a lone surrogate in the author', { author: 'Ana \uD800' }, 'text-control-characters', /broken character/],
    ['a line separator in the author', { author: 'Ana\u2028Belén' }, 'text-control-characters', /U\+2028/],
    ['a paragraph separator in the course', { course: 'GPUs\u2029101' }, 'text-control-characters', /U\+2029/],
    ['Zalgo text in the author', { author: `Ana x${'\u0301\u0316\u0358'.repeat(4)}` }, 'text-combining-marks', /stacks 12 combining marks on one character at position 5; a report takes at most 4/],
    ['an author of zero-width spaces', { author: '\u200B\u200B\u200D' }, 'text-invisible', /would print as nothing/],
    ['a course of word joiners and a soft hyphen', { course: '\u2060\u00AD\uFEFF' }, 'text-invisible', /would print as nothing/],
    ['a course of Hangul fillers', { course: '\u3164\u3164' }, 'text-invisible', /would print as nothing/],
  ])('refuses %s with INVALID_ARGUMENT naming the field', async (_, fields, reason, message) => {
    const r = await refusal(service(store).writeReport({ runIds: [record.id], ...fields }));
    expect(r.code).toBe('INVALID_ARGUMENT');
    expect(r.details.reason).toBe(reason);
    expect(r.details.field).toBe('author' in fields ? 'author' : 'course');
    expect(r.message).toMatch(message);
  });

  it('takes the accents real names carry: Vietnamese stacked marks, decomposed Spanish, emoji with joiners', async () => {
    for (const author of ['Nguyễn Thị Ngọc Ánh', 'Ma\u0301ria Nun\u0303ez', 'Ana 👩\u200D💻', 'Trần Quốc Toản']) {
      const pdf = await service(store).writeReport({ runIds: [record.id], author });
      expect(pdf.mimeType).toBe('application/pdf');
    }
  });

  it('takes 200 characters with accents and symbols, trimmed', async () => {
    const author = `  ${'á'.repeat(199)}✓  `;
    const pdf = await service(store).writeReport({ runIds: [record.id], author, course: 'Cálculo ≈ µ' });
    expect(pdf.mimeType).toBe('application/pdf');
    expect(Buffer.from(pdf.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('the runs a report is made of', () => {
  it('a deleted run is NOT_FOUND', async () => {
    const record = fixture('cpu-vector-function');
    const { store } = storeWith(record);
    await store.delete(record.id);
    const r = await refusal(service(store).writeReport({ runIds: [record.id] }));
    expect(r.code).toBe('NOT_FOUND');
    expect(r.details.runId).toBe(record.id);
  });

  it('a run still in progress is refused until it ends', async () => {
    // Its process is this one, alive: the store does not take it for an interrupted run.
    const running = { ...fixture('cpu-matmul'), status: 'running', finishedAt: null, environment: { ...fixture('cpu-matmul').environment, runnerPid: process.pid } };
    const { store } = storeWith(running);
    const r = await refusal(service(store).writeReport({ runIds: [running.id] }));
    expect([r.code, r.details.reason, r.details.status]).toEqual(['INVALID_ARGUMENT', 'run-in-progress', 'running']);
    expect(r.message).toContain('still running');
  });

  it('a record of an older schema version says which version it is, though the store cannot read it', async () => {
    const old = { ...fixture('cpu-matmul'), schemaVersion: 0 };
    const { store } = storeWith(old);
    const r = await refusal(service(store).writeReport({ runIds: [old.id] }));
    expect([r.code, r.details.reason, r.details.schemaVersion, r.details.oldest, r.details.supported]).toEqual(['INVALID_ARGUMENT', 'schema-version', 0, OLDEST_RUN_SCHEMA_VERSION, RUN_SCHEMA_VERSION]);
    expect(r.message).toContain(`schema version 0; this GPU Lab reads versions ${OLDEST_RUN_SCHEMA_VERSION} to ${RUN_SCHEMA_VERSION}`);
    // The writer refuses such a record handed to it directly, too.
    expect((await refusal(writeRunReport(old))).details.reason).toBe('schema-version');
    // A newer one is refused naming both versions.
    const newer = { ...fixture('cpu-matmul'), id: 'from-a-newer-gpu-lab', schemaVersion: RUN_SCHEMA_VERSION + 1 };
    const n = await refusal(service(storeWith(newer).store).writeReport({ runIds: [newer.id] }));
    expect(n.message).toContain(`schema version ${RUN_SCHEMA_VERSION + 1}, written by a newer GPU Lab; this GPU Lab reads versions ${OLDEST_RUN_SCHEMA_VERSION} to ${RUN_SCHEMA_VERSION}`);
  });

  it('three runs are one too many', async () => {
    const record = fixture('cpu-matmul');
    const { store } = storeWith(record);
    const r = await refusal(service(store).writeReport({ runIds: [record.id, record.id, record.id] }));
    expect(r.code).toBe('INVALID_ARGUMENT');
  });
});

describe('writing the file', () => {
  const bytes = new TextEncoder().encode('%PDF-1.7 test');

  it.each([
    ['a folder that does not exist', (dir: string) => join(dir, 'missing', 'report.pdf'), 'ENOENT', /its folder does not exist/],
    ['a path through a file', (dir: string) => (writeFileSync(join(dir, 'file'), 'x'), join(dir, 'file', 'report.pdf')), 'ENOTDIR', /is a file, not a folder/],
  ])('refuses %s with INVALID_ARGUMENT and leaves no file', async (_, target, cause, message) => {
    const dir = tempDir();
    const path = target(dir);
    const before = readdirSync(dir).sort();
    const r = await refusal(writeFileAtomic(path, bytes));
    expect([r.code, r.details.reason, r.details.cause]).toEqual(['INVALID_ARGUMENT', 'cannot-write', cause]);
    expect(r.message).toMatch(message);
    expect(r.message).toContain(path);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  // A folder, a FIFO, a device node, a socket or a link as the target: tests/unit/runs/atomic-write.test.ts.
  it('replaces an old report whole, leaving no temporary file', async () => {
    const dir = tempDir();
    const path = join(dir, 'report.pdf');
    writeFileSync(path, 'old');
    await writeFileAtomic(path, bytes);
    expect(readdirSync(dir)).toEqual(['report.pdf']);
  });

  // Root writes anywhere: there, nothing would be refused.
  it.skipIf(process.getuid?.() === 0)('a folder that cannot be written leaves nothing behind', async () => {
    const dir = tempDir();
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    const r = await refusal(writeFileAtomic(join(locked, 'report.pdf'), bytes));
    expect([r.details.reason, r.details.cause]).toEqual(['cannot-write', 'EACCES']);
    expect(readdirSync(locked)).toEqual([]);
  });
});
