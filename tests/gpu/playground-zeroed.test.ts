// On a class's server, one student's kernel run follows another's on the same GPU: the playground's device buffers
// must start zeroed, whatever an earlier run left in that memory, and be zeroed again before they are given back.
// The earlier run is played by a buffer filled with a pattern and freed; the driver hands the same memory out again
// (the control below shows it does here, else says it could not be seen), and the playground's buffers of the same
// size must read as zeros before any kernel ran. Run: node --test tests/gpu/playground-zeroed.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createProblem } from '../../main/host/kernel-problems.ts';
import { copyBuffer, createDeviceBuffer, createHostBuffer } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { DEVICE, freshSeed, skipWithoutGpu } from './helpers.ts';

// saxpy's three buffers of n fp32 each (x, y, out): 16 MiB apiece, large enough for the driver to reuse whole pages.
const N = 1 << 22;
// A number no input generator makes (they fill [-1, 1)), which the earlier "student" leaves behind.
const LEFT_BEHIND = 123456.75;

// An earlier run's buffer of N fp32, filled with LEFT_BEHIND, then freed.
async function leaveBehind(): Promise<void> {
  const host = createHostBuffer('fp32', N);
  host.write(new Float32Array(N).fill(LEFT_BEHIND));
  const dev = createDeviceBuffer('fp32', N, DEVICE);
  await copyBuffer(dev, host);
  dev.free();
  host.free();
}

function countOf(buffer: ElementBuffer, value: number): number {
  const values = buffer.read() as Float32Array;
  let n = 0;
  for (const v of values) if (v === value) n++;
  return n;
}

describe('the playground’s device buffers', { skip: skipWithoutGpu }, () => {
  it('start zeroed where an earlier run left its numbers in the same memory', async () => {
    await leaveBehind();
    // The control: a plain allocation of the same size, uninitialised, sees what was left (or the driver cleared it).
    const plain = createDeviceBuffer('fp32', N, DEVICE);
    const seen = countOf(plain, LEFT_BEHIND);
    plain.free();
    if (seen === 0) console.log('# the driver handed back cleared memory: the leftovers could not be seen here, the zeros are still checked');
    else console.log(`# control: an uninitialised buffer read ${seen} of ${N} values left behind by the earlier run`);

    await leaveBehind();
    const problem = await createProblem('saxpy', N, DEVICE, freshSeed());
    try {
      const out = problem.args[2];
      assert.ok(out && 'buffer' in out, 'saxpy’s third argument is its output buffer');
      const values = out.buffer.read() as Float32Array;
      let nonZero = 0;
      for (const v of values) if (!Object.is(v, 0)) nonZero++;
      assert.equal(nonZero, 0, `${nonZero} of ${N} elements of a new output buffer were not 0 before any kernel ran`);
    } finally {
      problem.free();
    }
  });

  it('are zeroed again before they are given back, so the next allocation finds nothing of the run', async () => {
    const problem = await createProblem('saxpy', N, DEVICE, freshSeed());
    const out = problem.args[2];
    assert.ok(out && 'buffer' in out);
    const host = createHostBuffer('fp32', N);
    host.write(new Float32Array(N).fill(LEFT_BEHIND));
    await copyBuffer(out.buffer, host);
    host.free();
    assert.equal(countOf(out.buffer, LEFT_BEHIND), N, 'the pattern was written');
    problem.free();
    const next = createDeviceBuffer('fp32', N, DEVICE);
    try {
      assert.equal(countOf(next, LEFT_BEHIND), 0, 'a buffer allocated after the run read what the run had written');
    } finally {
      next.free();
    }
  });
});
