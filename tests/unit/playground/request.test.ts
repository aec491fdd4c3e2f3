import { describe, expect, it } from 'vitest';

import { checkArgs } from '../../../main/common/api-dispatch.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { coverGrid, EXERCISES, exerciseDefinition } from '../../../main/common/exercises.ts';
import type { KernelRunRequest } from '../../../main/common/playground.ts';
import { resolveRequest } from '../../../main/playground/playground-service.ts';

// As a request from a wire meets it: its shape checked at the contract's door, then the playground's own checks.
function refusal(request: unknown): GpuLabError {
  try {
    const [checked] = checkArgs('playground.runKernel', [request]);
    resolveRequest(checked as KernelRunRequest);
  } catch (err) {
    if (err instanceof GpuLabError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('a kernel run request', () => {
  it('gets the exercise’s size, block and a grid that covers the output', () => {
    const r = resolveRequest({ exercise: 'saxpy', source: 'x' });
    expect(r.size).toBe(1 << 24);
    expect(r.launch).toEqual({ block: [256, 1, 1], grid: [(1 << 24) / 256, 1, 1], dynamicSharedBytes: 0 });
    const t = resolveRequest({ exercise: 'transpose', source: 'x', size: 1000, block: [32, 8, 1] });
    expect(t.launch.grid).toEqual([32, 125, 1]);
  });

  it('keeps a grid the student chose', () => {
    expect(resolveRequest({ exercise: 'saxpy', source: 'x', grid: [132, 1, 1] }).launch.grid).toEqual([132, 1, 1]);
  });

  it('refuses a block over CUDA’s limits, naming the field, the value and the limit', () => {
    const e = refusal({ exercise: 'saxpy', source: 'x', block: [2048, 1, 1] });
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toMatch(/`block` = \[2048, 1, 1\].*x at most 1024/);
    expect(refusal({ exercise: 'sgemm', source: 'x', block: [64, 32, 1] }).message).toMatch(/at most 1024 threads in all/);
    expect(refusal({ exercise: 'sgemm', source: 'x', grid: [1, 70000, 1] }).message).toMatch(/`grid`.*y at most 65535/);
  });

  it('refuses a size outside the exercise’s range, and says the range', () => {
    const e = refusal({ exercise: 'reduction', source: 'x', size: (1 << 23) + 1 });
    expect(e.message).toMatch(/`size` = 8388609 .*from 1 to 8388608 for reduction/);
  });

  it('refuses an unknown exercise, an empty source, a zero in a block and an unknown field at the door, naming the field', () => {
    expect(refusal({ exercise: 'fft', source: 'x' }).details).toMatchObject({ method: 'playground.runKernel', argument: 'request', field: 'exercise' });
    expect(refusal({ exercise: 'saxpy', source: '' }).details).toMatchObject({ field: 'source' });
    const zero = refusal({ exercise: 'saxpy', source: 'x', block: [0, 1, 1] });
    expect(zero.code).toBe('INVALID_ARGUMENT');
    expect(zero.details).toMatchObject({ field: 'block.0' });
    expect(zero.message).toMatch(/^Argument "request" of playground\.runKernel = a value of type object is not allowed: expected a kernel run request .*; `block\.0` = 0: /);
    expect(refusal({ exercise: 'saxpy', source: 'x', blocks: [1, 1, 1] }).message).toMatch(/`blocks` is not a field of it$/);
  });

  it('refuses an #include, which would let NVRTC read files of the machine, naming the line and column', () => {
    const e = refusal({ exercise: 'saxpy', source: '// mine\n  #  include "/etc/passwd"\n__global__ void saxpy() {}' });
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.details).toMatchObject({ field: 'source', line: 2, column: 3, reason: 'directive', token: 'include' });
    expect(e.message).toMatch(/`source` line 2, column 3: the directive #include is not available/);
    expect(refusal({ exercise: 'saxpy', source: '#if __has_include("/etc/shadow")\n#endif' }).details).toMatchObject({ line: 1, column: 5, reason: 'forbidden-identifier' });
    // The word in a comment elsewhere on a line that is not a directive is fine.
    expect(resolveRequest({ exercise: 'saxpy', source: '// no include needed\n__global__ void saxpy() {}' }).source).toContain('saxpy');
  });

  it('takes the launch the source\'s header states, the student\'s block and grid winning over it', () => {
    const source = '// launch: block=32x8 grid=tiles:32x32 shared=2048\n__global__ void transpose() {}';
    expect(resolveRequest({ exercise: 'transpose', source }).launch).toEqual({ block: [32, 8, 1], grid: [128, 128, 1], dynamicSharedBytes: 2048 });
    // A block of the student's: the header's tiles still decide the grid.
    expect(resolveRequest({ exercise: 'transpose', source, block: [32, 4, 1] }).launch).toMatchObject({ block: [32, 4, 1], grid: [128, 128, 1] });
    expect(resolveRequest({ exercise: 'transpose', source, grid: [5, 5, 1] }).launch.grid).toEqual([5, 5, 1]);
    // One thread per element follows the student's block.
    expect(resolveRequest({ exercise: 'saxpy', source: '// launch: block=512 grid=cover', block: [128, 1, 1] }).launch.grid).toEqual([(1 << 24) / 128, 1, 1]);
  });

  it('refuses a launch header it cannot read, naming its line, the field, the value and what was expected', () => {
    const e = refusal({ exercise: 'sgemm', source: '// my sgemm\n// launch: block=32x64 grid=cover\n__global__ void sgemm() {}' });
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.message).toBe('`source` line 2, the launch header: `block` = "32x64" is not allowed: expected at most 1024 threads in all (x · y · z)');
    expect(e.details).toMatchObject({ field: 'source', header: { line: 2, field: 'block', value: '32x64', reason: 'threads' } });
    expect(refusal({ exercise: 'sgemm', source: '// launch: grid=auto' }).message).toContain('`grid` = "auto" is not allowed: expected cover, tiles:W[xH[xD]] or a grid X[xY[xZ]]');
  });

  it('a covering grid launches at least one thread per output element for every exercise', () => {
    for (const def of EXERCISES) {
      for (const size of [1, 7, def.size.default]) {
        const block = def.defaultBlock;
        const grid = coverGrid(def, size, block);
        const shape = def.outputShape(size);
        const threads = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
        if (def.id !== 'reduction') expect(threads).toBeGreaterThanOrEqual(shape.length);
      }
    }
    expect(exerciseDefinition('sgemm').work(4096)).toBe(2 * 4096 ** 3);
  });
});
