// The files a Python peer's inputs cross in: written once for the peer points that take the same inputs one after
// the other, the oldest let go beyond the limit, all of them on forgetting, and a folder left by a host that died
// removed by the next. Real buffers, real files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createHostBuffer } from '../../../native/index.ts';
import type { ElementBuffer } from '../../../native/index.ts';
import { forgetInputs, inputFiles, outputFile } from '../../../main/host/peer-files.ts';

const buffers: ElementBuffer[] = [];
const filled = (seed: number, length = 256): ElementBuffer => {
  const b = createHostBuffer('fp32', length).fillRandom(seed, { low: -1, high: 1 });
  buffers.push(b);
  return b;
};

afterAll(async () => {
  await forgetInputs();
  for (const b of buffers) b.free();
});

describe('the peers\' input files', () => {
  it('writes an input once for the points that take it, with its bytes, and lets the oldest go beyond the limit', async () => {
    const x = { key: 'x', buffer: filled(1) };
    const y = { key: 'y', buffer: filled(2) };
    const [fx, fy] = await inputFiles([x, y], 1024, 4096);
    if (!fx || !fy) throw new Error('no files');
    expect(new Uint8Array(readFileSync(fx.path))).toEqual(new Uint8Array(x.buffer.read().buffer));
    expect(fx).toMatchObject({ dtype: 'float32', length: 256 });
    const written = statSync(fx.path).mtimeMs;
    // The next point with the same x: the same file, not written again.
    const [again] = await inputFiles([x], 1024, 4096);
    expect(again?.path).toBe(fx.path);
    expect(statSync(fx.path).mtimeMs).toBe(written);
    // A third input of 1 KiB over a 2 KiB limit: y, used longest ago, goes; x and z stay.
    const [fz] = await inputFiles([{ key: 'z', buffer: filled(3) }], 1024, 2048);
    expect(existsSync(fy.path)).toBe(false);
    expect(existsSync(fx.path)).toBe(true);
    expect(dirname(fz?.path ?? '')).toBe(dirname(fx.path));
    expect(dirname(outputFile())).toBe(dirname(fx.path));
    await forgetInputs();
    expect(existsSync(dirname(fx.path))).toBe(false);
    // Forgotten: written anew.
    const [fresh] = await inputFiles([x], 1024, 4096);
    expect(fresh?.path).not.toBe(fx.path);
  });

  it('removes the folder a host that died left, and not a living one\'s', async () => {
    const [mine] = await inputFiles([{ key: 'w', buffer: filled(4) }], 0, 4096);
    const base = dirname(dirname(mine?.path ?? ''));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const left = join(base, `gpu-lab-peer-${dead}-left`);
    const living = join(base, `gpu-lab-peer-${process.ppid}-alive`);
    for (const d of [left, living]) mkdirSync(d, { recursive: true });
    await forgetInputs();
    await inputFiles([{ key: 'w', buffer: filled(4) }], 0, 4096);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(living)).toBe(true);
    spawnSync('rmdir', [living]);
  });
});
