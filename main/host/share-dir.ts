// Where a playground kernel's arrays cross to the Python worker (kernel-python.ts; a peer series' cross in
// peer-files.ts's): in memory where /dev/shm has room for them (a container's is often 64 MiB), else the temporary
// folder; a folder of their own, which the caller removes.
import { existsSync } from 'node:fs';
import { mkdtemp, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function shareDir(bytes: number): Promise<string> {
  let base = tmpdir();
  if (existsSync('/dev/shm')) {
    const fs = await statfs('/dev/shm').catch(() => null);
    if (fs && fs.bavail * fs.bsize > 2 * bytes) base = '/dev/shm';
  }
  return mkdtemp(join(base, 'gpu-lab-kernel-'));
}
