// The parameters a student sets: defaults first, kept per lab across reloads, presets recognised as such, reset to
// the defaults; and the check with main as they type, whose latest answer alone counts.
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';

import { labDescriptors } from '../../../../main/labs/index.ts';
import type { fakeMain } from './fake-main.ts';

const main = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeMain> | null }));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const { fakeMain: make } = await import('./fake-main.ts');
  main.current = make();
  return main.current.module();
});

const { useLabParamsStore } = await import('../../../../renderer/stores/lab-params.ts');
const { useParamCheck } = await import('../../../../renderer/composables/useParamCheck.ts');

const lab = labDescriptors().find((l) => l.id === 'elementwise-breakeven');
if (!lab) throw new Error('no elementwise-breakeven lab');

beforeEach(() => {
  localStorage.clear();
  setActivePinia(createPinia());
});

describe('lab parameters', () => {
  it('start at the defaults, which are the first preset', () => {
    const params = useLabParamsStore();
    expect(params.draftOf(lab)).toEqual({ ops: ['add', 'mul', 'exp'], minExponent: 2, maxExponent: 8, pointsPerDecade: 2, target: 2, repeats: 20, warmup: 2, threads: 0 });
    expect(params.presetOf(lab)?.id).toBe('full');
  });

  it('keep a change across a reload, recognise a preset by its values, and reset to the defaults', async () => {
    const params = useLabParamsStore();
    params.set(lab, 'maxExponent', 6);
    params.set(lab, 'pointsPerDecade', 1);
    expect(params.presetOf(lab)?.id).toBe('seed-003');
    params.set(lab, 'repeats', 5);
    expect(params.presetOf(lab)).toBeNull();
    await nextTick();
    setActivePinia(createPinia());
    const reloaded = useLabParamsStore();
    expect(reloaded.draftOf(lab)).toMatchObject({ maxExponent: 6, pointsPerDecade: 1, repeats: 5 });
    const fine = lab.presets.find((p) => p.id === 'fine');
    if (!fine) throw new Error('no preset "fine"');
    reloaded.applyPreset(lab, fine);
    expect(reloaded.draftOf(lab)).toMatchObject({ maxExponent: 8, pointsPerDecade: 4, repeats: 20 });
    reloaded.reset(lab);
    expect(reloaded.presetOf(lab)?.id).toBe('full');
  });

  it('ignore a stored parameter the lab no longer has, and a stored value that is not JSON', () => {
    localStorage.setItem('gpu-lab.params', JSON.stringify({ 'elementwise-breakeven': { maxExponent: 5, retired: 1 } }));
    expect(useLabParamsStore().draftOf(lab)).not.toHaveProperty('retired');
    expect(useLabParamsStore().draftOf(lab).maxExponent).toBe(5);
    localStorage.setItem('gpu-lab.params', '{not json');
    setActivePinia(createPinia());
    expect(useLabParamsStore().draftOf(lab).maxExponent).toBe(8);
  });
});

describe('the check as the user types', () => {
  it('shows main\'s message for the parameter it names, and only the latest answer', async () => {
    vi.useFakeTimers();
    const { ApiError } = await import('../../../../renderer/api/api-error.ts');
    const answers: ((v: unknown) => void)[] = [];
    main.current?.answer('labs.validateParams', ([, params]) => {
      const p = params as Record<string, unknown>;
      if (p.maxExponent === 12) throw new ApiError({ code: 'INVALID_PARAMS', message: 'Parameter "maxExponent" = 12 is not allowed', details: { parameter: 'maxExponent' } });
      return new Promise((resolve) => answers.push(resolve));
    });
    const values = ref<Record<string, number>>({ maxExponent: 12 });
    const scope = effectScope();
    const check = scope.run(() => useParamCheck({ lab: ref('elementwise-breakeven'), values, delayMs: 100 }));
    if (!check) throw new Error('no check');
    expect(check.checking.value).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    await flushPromises();
    expect(check.problem.value).toEqual({ parameter: 'maxExponent', message: 'Parameter "maxExponent" = 12 is not allowed' });
    // Two quick changes: one request, after the pause.
    values.value = { maxExponent: 7 };
    await nextTick();
    values.value = { maxExponent: 6 };
    await nextTick();
    await vi.advanceTimersByTimeAsync(100);
    expect(answers).toHaveLength(1);
    answers[0]?.({});
    await flushPromises();
    expect(check.problem.value).toBeNull();
    expect(check.checking.value).toBe(false);
    scope.stop();
    vi.useRealTimers();
  });
});
