import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { KernelRun } from '../../../main/common/playground.ts';
import { KernelStore } from '../../../main/playground/kernel-store.ts';

function failedRun(id: string, createdAt: string): KernelRun {
  return {
    id,
    exercise: 'saxpy',
    createdAt,
    source: '__global__ void saxpy() {}',
    request: { exercise: 'saxpy', source: '__global__ void saxpy() {}', device: 'cuda:0', compare: true },
    status: 'failed',
    result: null,
    error: { code: 'TIMEOUT', message: 'The kernel was still running after 5000 ms', details: { watchdogMs: 5000, sticky: true } },
  };
}

describe('the kernel store', () => {
  const dir = (): string => mkdtempSync(join(tmpdir(), 'gpu-lab-kstore-'));

  it('keeps a run whole, lists newest first, and deletes', async () => {
    const store = new KernelStore(dir());
    await store.save(failedRun('a', '2026-01-01T00:00:00.000Z'));
    await store.save(failedRun('b', '2026-01-02T00:00:00.000Z'));
    expect(await store.get('a')).toEqual(failedRun('a', '2026-01-01T00:00:00.000Z'));
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual(['b', 'a']);
    expect(list[0]).toMatchObject({ exercise: 'saxpy', status: 'failed', device: 'cuda:0', medianMs: null, metric: 'GB/s' });
    expect(await store.list('sgemm')).toEqual([]);
    await store.delete('a');
    await expect(store.get('a')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('skips a corrupt file with a warning naming it, and refuses it by name with the field at fault', async () => {
    const warnings: string[] = [];
    const store = new KernelStore(dir(), { warn: (m) => warnings.push(m) });
    await store.save(failedRun('good', '2026-01-01T00:00:00.000Z'));
    writeFileSync(join(store.runsDir, 'torn.json'), '{"id": "torn", "exer');
    writeFileSync(join(store.runsDir, 'wrong.json'), JSON.stringify({ ...failedRun('wrong', 'x'), status: 'great' }));
    expect((await store.list()).map((s) => s.id)).toEqual(['good']);
    expect(warnings.join('\n')).toMatch(/torn.*not JSON/);
    await expect(store.get('wrong')).rejects.toThrow(/`status`/);
    await expect(store.get('../etc/passwd')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('opens only regular files: a FIFO, a link to /etc/passwd and a 65 MiB file are named and skipped, never read', async () => {
    const warnings: string[] = [];
    const store = new KernelStore(dir(), { warn: (m) => warnings.push(m) });
    await store.save(failedRun('good', '2026-01-01T00:00:00.000Z'));
    const fifo = join(store.runsDir, 'fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const outside = join(dir(), 'passwd');
    writeFileSync(outside, 'root:x:0:0:root:/root:/bin/bash\n');
    symlinkSync(outside, join(store.runsDir, 'link.json'));
    writeFileSync(join(store.runsDir, 'copied.json'), 'root:x:0:0:root:/root:/bin/bash\n');
    writeFileSync(join(store.runsDir, 'huge.json'), '');
    truncateSync(join(store.runsDir, 'huge.json'), 65 * 1024 * 1024);
    symlinkSync(outside, join(store.draftsDir, 'saxpy.cu'));
    try {
      expect((await store.list()).map((s) => s.id)).toEqual(['good']);
      const said = warnings.join('\n');
      expect(said).toContain(`${fifo}: it is a FIFO (a named pipe), not a regular file`);
      expect(said).toContain('link.json: it is a symbolic link, not a regular file (not followed)');
      expect(said).toContain('huge.json: it holds 68157440 bytes');
      expect(said).toContain('copied.json is not JSON');
      expect(said).not.toContain('root:x');
      expect(await store.loadDraft('saxpy')).toBeNull();
    } finally {
      // The code before this check blocked on the FIFO: a writer lets it go (ENXIO where no reader waits).
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // Nobody waits on it.
      }
    }
  }, 10_000);

  it('keeps one draft per exercise on disk', async () => {
    const d = dir();
    const store = new KernelStore(d);
    expect(await store.loadDraft('saxpy')).toBeNull();
    await store.saveDraft('saxpy', '// mine');
    expect(await new KernelStore(d).loadDraft('saxpy')).toBe('// mine');
    expect(readFileSync(join(store.draftsDir, 'saxpy.cu'), 'utf8')).toBe('// mine');
    await expect(store.saveDraft('saxpy', 'x'.repeat(100_001))).rejects.toThrow(/at most 100000 characters/);
  });
});
