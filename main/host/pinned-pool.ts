// Pinned host memory kept between points. Page-locking is slow (cudaHostAlloc and cudaFreeHost of the transfer lab's
// sizes, 1 KiB to 1 GiB, took about a second per pinned series on the H200's host, more than its samples), and the
// lab's pinned series take the same sizes one after the other: a point's pinned buffer goes back here when it is
// done, and the next point that asks for the same type and length gets it (filled or poisoned anew by its backend).
// At most KEEP_BYTES_MAX (and an eighth of the machine's memory) is held, the oldest let go first, and all of it once
// no pinned buffer has been given back for KEEP_MS.
import { totalmem } from 'node:os';

import { createPinnedBuffer } from '../../native/index.ts';
import type { DType, ElementBuffer } from '../../native/index.ts';

export const KEEP_BYTES_MAX = 2 * 1024 ** 3;
export const KEEP_MS = 10_000;

const kept: ElementBuffer[] = [];
let idle: NodeJS.Timeout | null = null;

const keptBytes = (): number => kept.reduce((sum, b) => sum + b.byteLength, 0);

// A pinned buffer of `dtype` and `length`: one kept, else a new one (`make`).
export function takePinned<D extends DType>(dtype: D, length: number, make: (dtype: D, length: number) => ElementBuffer<D> = createPinnedBuffer): ElementBuffer<D> {
  const i = kept.findIndex((b) => !b.freed && b.dtype === dtype && b.length === length);
  const found = i >= 0 ? kept.splice(i, 1)[0] : undefined;
  return found ? (found as ElementBuffer<D>) : make(dtype, length);
}

// A point's pinned buffer, done with: kept for the next point that asks for its type and length.
export function givePinned(buffer: ElementBuffer, keepBytes = Math.min(KEEP_BYTES_MAX, totalmem() / 8)): void {
  if (buffer.freed) return;
  kept.push(buffer);
  while (kept.length > 0 && keptBytes() > keepBytes) kept.shift()?.free();
  if (idle) clearTimeout(idle);
  idle = setTimeout(releasePinned, KEEP_MS);
  idle.unref();
}

// Every kept pinned buffer freed.
export function releasePinned(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  for (const b of kept.splice(0)) b.free();
}
