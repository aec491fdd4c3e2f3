// The launch form's check, before anything is sent: the size within the exercise's limits, every dimension a whole
// number from 1, CUDA's limits per block and grid; each problem names its field and quotes the value. Left
// automatic, the grid is left out of the request; typed, it goes with it.
import { describe, expect, it } from 'vitest';

import { checkLaunch, coverGrid, defaultDraft } from '../../../../renderer/components/playground/launch-form.ts';
import type { LaunchDraft } from '../../../../renderer/components/playground/launch-form.ts';
import { saxpyExercise, transposeExercise } from './synthetic-kernel-run.ts';

const draft = (over: Partial<LaunchDraft>): LaunchDraft => ({ ...defaultDraft(saxpyExercise), ...over });

describe('checking a launch', () => {
  it('starts from the exercise’s default size and block, the grid automatic, and asks for no grid', () => {
    expect(checkLaunch(defaultDraft(saxpyExercise), saxpyExercise)).toEqual({ launch: { size: 2 ** 24, block: [256, 1, 1] }, problems: [] });
  });

  it('sends the grid the student typed', () => {
    const { launch } = checkLaunch(draft({ gridAuto: false, grid: ['4096', '1', '1'] }), saxpyExercise);
    expect(launch).toEqual({ size: 2 ** 24, block: [256, 1, 1], grid: [4096, 1, 1] });
  });

  it('names the field, quotes the value and says what was expected', () => {
    const { launch, problems } = checkLaunch(draft({ size: '0', block: ['256', 'two', '1'], gridAuto: false, grid: ['1', '70000', '-1'] }), saxpyExercise);
    expect(launch).toBeNull();
    expect(problems).toEqual([
      { field: 'size', key: 'range', named: { value: '0', min: 1, max: 2 ** 28 } },
      { field: 'block-y', key: 'integer', named: { value: 'two' } },
      { field: 'grid-y', key: 'max', named: { value: '70000', max: 65535 } },
      { field: 'grid-z', key: 'integer', named: { value: '-1' } },
    ]);
  });

  it('refuses a block of more than 1024 threads, and more than 64 in z', () => {
    expect(checkLaunch(draft({ block: ['64', '32', '1'] }), saxpyExercise).problems).toEqual([{ field: 'block', key: 'threads', named: { threads: 2048, max: 1024 } }]);
    expect(checkLaunch(draft({ block: ['1', '1', '128'] }), saxpyExercise).problems).toEqual([{ field: 'block-z', key: 'max', named: { value: '128', max: 64 } }]);
  });

  it('ignores the typed grid while the grid is automatic', () => {
    expect(checkLaunch(draft({ gridAuto: true, grid: ['x', '', ''] }), saxpyExercise).problems).toEqual([]);
  });

  it('reads 1_000_000 and 1.5 as a whole number and not one', () => {
    expect(checkLaunch(draft({ size: '1_000_000' }), saxpyExercise).launch?.size).toBe(1_000_000);
    expect(checkLaunch(draft({ size: '1.5' }), saxpyExercise).problems[0]).toEqual({ field: 'size', key: 'integer', named: { value: '1.5' } });
  });
});

describe('the grid that covers the size', () => {
  it('gives one thread per element in one dimension', () => {
    // 2²⁴ elements in blocks of 256: 65 536 blocks; 1000 elements: 4 blocks, the last one partly idle.
    expect(coverGrid(saxpyExercise, 2 ** 24, [256, 1, 1])).toEqual([65536, 1, 1]);
    expect(coverGrid(saxpyExercise, 1000, [256, 1, 1])).toEqual([4, 1, 1]);
  });

  it('covers an N × N output in two dimensions', () => {
    expect(coverGrid(transposeExercise, 4100, [32, 8, 1])).toEqual([129, 513, 1]);
  });
});
