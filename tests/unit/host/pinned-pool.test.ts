// Pinned memory kept between points: the next point of the same type and length gets the buffer the last one gave
// back instead of page-locking anew; other sizes get their own; no more than the limit is held, the oldest let go
// first; all of it on release. Host buffers stand in for pinned ones (this machine may have no GPU).
import { afterEach, describe, expect, it, vi } from 'vitest';

import { givePinned, releasePinned, takePinned } from '../../../main/host/pinned-pool.ts';
import { createHostBuffer } from '../../../native/index.ts';
import type { DType } from '../../../native/index.ts';

const make = vi.fn(<D extends DType>(dtype: D, length: number) => createHostBuffer(dtype, length));

afterEach(() => {
  releasePinned();
  make.mockClear();
});

describe('the pinned pool', () => {
  it('gives a point the buffer of its type and length that the point before gave back, and makes the others', () => {
    const first = takePinned('int8', 4096, make);
    givePinned(first, 1 << 20);
    expect(takePinned('int8', 4096, make)).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
    givePinned(first, 1 << 20);
    const other = takePinned('int8', 1024, make);
    expect(other).not.toBe(first);
    expect(takePinned('fp32', 1024, make)).not.toBe(first);
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('holds no more than its limit, letting the oldest go first, and frees all on release', () => {
    const a = takePinned('int8', 4096, make);
    const b = takePinned('int8', 8192, make);
    givePinned(a, 12_288);
    givePinned(b, 12_288);
    expect([a.freed, b.freed]).toEqual([false, false]);
    const c = takePinned('int8', 2048, make);
    givePinned(c, 12_288);
    expect([a.freed, b.freed, c.freed]).toEqual([true, false, false]);
    releasePinned();
    expect([b.freed, c.freed]).toEqual([true, true]);
    expect(takePinned('int8', 8192, make)).not.toBe(b);
  });
});
