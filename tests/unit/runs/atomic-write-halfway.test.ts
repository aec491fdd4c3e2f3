// A report whose writing fails after its temporary file was made (the disk fills, the rename is refused) leaves
// neither that file nor a half report: the target keeps its old content, or stays absent.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { writeFileAtomic } from '../../../main/runs/atomic-write.ts';
import { tempDir } from '../reports/pdf-tools.ts';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return { ...real, rename: vi.fn(real.rename) };
});

describe('a write that fails half-way', () => {
  it.each([
    ['no report before', null],
    ['an old report', 'the old report'],
  ])('with %s leaves the folder as it was', async (_, old) => {
    const dir = tempDir();
    const path = join(dir, 'report.pdf');
    if (old !== null) writeFileSync(path, old);
    vi.mocked(rename).mockRejectedValueOnce(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    const err = await writeFileAtomic(path, new TextEncoder().encode('%PDF-1.7 new')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuLabError);
    expect((err as GpuLabError).details).toMatchObject({ reason: 'cannot-write', cause: 'ENOSPC' });
    expect((err as GpuLabError).message).toContain('the disk is full');
    expect(readdirSync(dir)).toEqual(old === null ? [] : ['report.pdf']);
    if (old !== null) expect(readFileSync(path, 'utf8')).toBe(old);
  });
});
