import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
