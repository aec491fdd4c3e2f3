// The inputs a Python peer's points take: made (filled and written to a file) once for the peer points that take the
// same inputs one after the other, the oldest let go beyond the limit (never one a point still reads), all of them on
// forgetting, and a folder left by a host that died removed by the next. Real buffers, real files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { createHostBuffer } from '../../../native/index.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import { forgetInputs, inputFiles, outputFile } from '../../../main/host/peer-files.ts';

const filled = (seed: number, length = 256): ElementBuffer => createHostBuffer('fp32', length).fillRandom(seed, { low: -1, high: 1 });
// An input as ops/peer.ts describes one: its key, and how to make it where none is kept.
const input = (key: string, seed: number) => ({ key, make: vi.fn(() => Promise.resolve(filled(seed))) });

afterAll(async () => {
  await forgetInputs();
});

describe('the peers\' input files', () => {
  it('writes an input once for the points that take it, with its bytes, and lets the oldest go beyond the limit', async () => {
    const x = input('x', 1);
    const y = input('y', 2);
    const first = await inputFiles([x, y], 1024, 8192);
    first.done();
    const [fx, fy] = first.arrays;
    const [bx, by] = first.buffers;
    if (!fx || !fy || !bx || !by) throw new Error('no files');
    expect(new Uint8Array(readFileSync(fx.path))).toEqual(new Uint8Array(filled(1).read().buffer));
    expect(fx).toMatchObject({ dtype: 'fp32', length: 256 });
    const written = statSync(fx.path).mtimeMs;
    // The next point with the same x: the same file, not written again, and the same buffer, not made again.
    const again = await inputFiles([x], 1024, 8192);
    again.done();
    expect(again.arrays[0]?.path).toBe(fx.path);
    expect(again.buffers[0]).toBe(bx);
    expect(x.make).toHaveBeenCalledTimes(1);
    expect(statSync(fx.path).mtimeMs).toBe(written);
    // A third input of 1 KiB (2 KiB with its buffer) over a 4 KiB limit: y, used longest ago, goes, its buffer freed;
    // x and z stay.
    const third = await inputFiles([input('z', 3)], 1024, 4096);
    third.done();
    expect(existsSync(fy.path)).toBe(false);
    expect(by.freed).toBe(true);
    expect(existsSync(fx.path)).toBe(true);
    expect(bx.freed).toBe(false);
    expect(dirname(third.arrays[0]?.path ?? '')).toBe(dirname(fx.path));
    expect(dirname(outputFile())).toBe(dirname(fx.path));
    await forgetInputs();
    expect(existsSync(dirname(fx.path))).toBe(false);
    expect(bx.freed).toBe(true);
    // Forgotten: made and written anew.
    const fresh = await inputFiles([x], 1024, 8192);
    fresh.done();
    expect(fresh.arrays[0]?.path).not.toBe(fx.path);
    expect(x.make).toHaveBeenCalledTimes(2);
  });

  it('writes an input of several pieces, the last one short, every byte in its place', async () => {
    // 2.5 MiB of float64 and 1 MiB + 3 bytes of int8: written a MiB at a time.
    for (const [dtype, length] of [['fp64', 327_680], ['int8', (1 << 20) + 3]] as const) {
      const buffer = createHostBuffer(dtype, length).fillRandom(9);
      const made = await inputFiles([{ key: `big-${dtype}`, make: () => Promise.resolve(buffer) }], 0, 1 << 30);
      made.done();
      const bytes = new Uint8Array(readFileSync(made.arrays[0]?.path ?? ''));
      const values = buffer.read();
      expect(bytes.byteLength).toBe(values.byteLength);
      expect(Buffer.compare(bytes, new Uint8Array(values.buffer, values.byteOffset, values.byteLength))).toBe(0);
    }
    await forgetInputs();
  });

  it('frees a let-go input\'s buffer only when the point reading it is done', async () => {
    const busy = await inputFiles([input('busy', 5)], 0, 8192);
    const [buffer] = busy.buffers;
    await forgetInputs();
    expect(buffer?.freed).toBe(false);
    expect(buffer?.toFloat64(0, 1)[0]).toBe(filled(5).toFloat64(0, 1)[0]);
    busy.done();
    expect(buffer?.freed).toBe(true);
  });

  it('removes the folder a host that died left, and not a living one\'s', async () => {
    const mine = (await inputFiles([input('w', 4)], 0, 4096)).arrays[0];
    const base = dirname(dirname(mine?.path ?? ''));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const left = join(base, `gpu-lab-peer-${dead}-left`);
    const living = join(base, `gpu-lab-peer-${process.ppid}-alive`);
    for (const d of [left, living]) mkdirSync(d, { recursive: true });
    await forgetInputs();
    (await inputFiles([input('w', 4)], 0, 4096)).done();
    expect(existsSync(left)).toBe(false);
    expect(existsSync(living)).toBe(true);
    spawnSync('rmdir', [living]);
  });
});
