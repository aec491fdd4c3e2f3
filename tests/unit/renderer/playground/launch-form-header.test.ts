// The launch form takes the launch header of the source in the editor: loading SGEMM's shared-tiles reference sets
// blocks of 32 × 32 (issue 24: under the default 16 × 16 it failed), a fixed grid is typed in, a block the student
// typed stays while the header does not change, and a header that cannot be read says why and keeps Run disabled.
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';

import type { ExerciseDescriptor } from '../../../../main/common/playground.ts';
import LaunchForm from '../../../../renderer/components/playground/LaunchForm.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { saxpyExercise } from './synthetic-kernel-run.ts';

const sgemm: ExerciseDescriptor = { ...saxpyExercise, id: 'sgemm', cover: '2d', defaultBlock: [16, 16, 1], size: { name: 'N', default: 4096, min: 1, max: 16384, label: 'Matrix order (N)' } };
const STARTER = '// launch: block=16x16 grid=cover\n__global__ void sgemm() {}\n';
const SHARED = '// launch: block=32x32 grid=cover\n__global__ void sgemm() {}\n';
const TILED = '// launch: block=256 grid=tiles:128x128\n__global__ void sgemm() {}\n';

function mountForm(source: string) {
  return mount(LaunchForm, { props: { exercise: sgemm, source, usedGrid: null, disabledReason: null, running: false }, global: { plugins: [i18n] } });
}

const block = (w: ReturnType<typeof mountForm>): string[] => ['x', 'y', 'z'].map((a) => (w.get(`[data-testid="launch-block-${a}"]`).element as HTMLInputElement).value);

describe('the launch form and the source\'s launch header', () => {
  it('takes the block of a reference loaded into the editor, and runs with it', async () => {
    const w = mountForm(STARTER);
    expect(block(w)).toEqual(['16', '16', '1']);
    await w.setProps({ source: SHARED });
    expect(block(w)).toEqual(['32', '32', '1']);
    expect(w.get('[data-testid="launch-header"]').text()).toBe('From the launch header on line 1 of the source: block=32x32, grid=cover.');
    await w.get('form').trigger('submit');
    expect(w.emitted('run')?.[0]).toEqual([{ size: 4096, block: [32, 32, 1] }]);
  });

  it('says what an automatic grid of tiles covers, and leaves the grid to main', async () => {
    const w = mountForm(TILED);
    expect(block(w)).toEqual(['256', '1', '1']);
    expect(w.get('[data-testid="launch-grid-used"]').text()).toBe('As the launch header says: one block per 128 × 128 elements of the output.');
    await w.get('form').trigger('submit');
    expect(w.emitted('run')?.[0]).toEqual([{ size: 4096, block: [256, 1, 1] }]);
  });

  it('types in a grid the header fixes', async () => {
    const w = mountForm('// launch: block=128 grid=132\n');
    await w.get('form').trigger('submit');
    expect(w.emitted('run')?.[0]).toEqual([{ size: 4096, block: [128, 1, 1], grid: [132, 1, 1] }]);
  });

  it('keeps a block the student typed while the header stays the same', async () => {
    const w = mountForm(SHARED);
    await w.get('[data-testid="launch-block-x"]').setValue('8');
    await w.setProps({ source: `${SHARED}// an edit elsewhere\n` });
    expect(block(w)).toEqual(['8', '32', '1']);
  });

  it('says why a header cannot be used, names its line, and keeps Run disabled', async () => {
    const w = mountForm('// mine\n// launch: block=64x32\n');
    expect(w.get('[data-testid="launch-header-problem"]').text()).toBe('The launch header on line 2 cannot be used: block = “64x32”: a block holds at most 1024 threads.');
    expect(w.get('[data-testid="run-kernel"]').attributes('disabled')).toBeDefined();
    // The reason is written beside Run and describes it.
    const reason = w.get('[data-testid="run-disabled-reason"]');
    expect(reason.text()).toBe('Correct the launch header first.');
    expect(w.get('[data-testid="run-kernel"]').attributes('aria-describedby')).toBe(reason.attributes('id'));
  });
});
