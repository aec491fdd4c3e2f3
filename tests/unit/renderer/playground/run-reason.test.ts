// Why Run is off, said beside it: for each thing that stops a run (a run already out, kernels that cannot run here,
// the draft not read yet, a source the playground refuses, launch values that do not check) the button is disabled
// and a visible sentence says why and describes the button (aria-describedby), the first of them when several hold;
// with none of them Run is enabled and nothing is said.
import { mount } from '@vue/test-utils';
import type { VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

import LaunchForm from '../../../../renderer/components/playground/LaunchForm.vue';
import { runBlocker } from '../../../../renderer/components/playground/run-blocker.ts';
import type { RunState } from '../../../../renderer/components/playground/run-blocker.ts';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { saxpyExercise } from './synthetic-kernel-run.ts';

type Props = InstanceType<typeof LaunchForm>['$props'];

function mountForm(props: Partial<Props> = {}) {
  return mount(LaunchForm, { props: { exercise: saxpyExercise, usedGrid: null, disabledReason: null, running: false, ...props }, global: { plugins: [i18n] } });
}

// The sentence that describes Run, or null: what a screen reader says after the button's name.
function description(wrapper: VueWrapper): string | null {
  const ids = wrapper.get('[data-testid="run-kernel"]').attributes('aria-describedby');
  if (!ids) return null;
  return ids
    .split(' ')
    .map((id) => wrapper.get(`[id="${id}"]`).text())
    .join(' ');
}

const runButton = (wrapper: VueWrapper) => wrapper.get<HTMLButtonElement>('[data-testid="run-kernel"]');
const shownReason = (wrapper: VueWrapper) => wrapper.get('[data-testid="run-disabled-reason"]').text();

afterEach(() => {
  i18n.global.locale.value = 'en';
});

describe('Run, and why it is off', () => {
  it('is enabled with nothing said when nothing stops it', () => {
    const wrapper = mountForm();
    expect(runButton(wrapper).element.disabled).toBe(false);
    expect(wrapper.find('[data-testid="run-disabled-reason"]').exists()).toBe(false);
    expect(description(wrapper)).toBeNull();
  });

  const cases: { name: string; props: Partial<Props>; reason: string }[] = [
    {
      name: 'kernels cannot run on this computer',
      props: { disabledReason: 'NVRTC was not found on this machine (libnvrtc.so.13 could not be loaded)' },
      reason: 'Run is not available: NVRTC was not found on this machine (libnvrtc.so.13 could not be loaded)',
    },
    {
      name: 'whether they can is still being checked',
      props: { disabledReason: 'checking whether kernels can run here…' },
      reason: 'Run is not available: checking whether kernels can run here…',
    },
    { name: 'a run is in progress', props: { running: true }, reason: 'A run is in progress: compiling, checking against the CPU and timing take a few seconds.' },
    { name: 'the draft is still being read', props: { draftLoading: true }, reason: 'Run waits until your draft has been read.' },
    {
      name: 'the source has something the playground refuses',
      props: { sourceRefusal: { line: 3, column: 5 } },
      reason: 'Run is off until the source passes the playground’s check: fix line 3, col 5 first.',
    },
  ];
  for (const { name, props, reason } of cases) {
    it(`is off with the reason written beside it and describing it when ${name}`, () => {
      const wrapper = mountForm(props);
      expect(runButton(wrapper).element.disabled).toBe(true);
      expect(shownReason(wrapper)).toBe(reason);
      expect(description(wrapper)).toBe(reason);
    });
  }

  it('is off while launch values do not check, counting the problems to fix', async () => {
    const wrapper = mountForm();
    await wrapper.get('[data-testid="launch-block-x"]').setValue('2048');
    expect(runButton(wrapper).element.disabled).toBe(true);
    expect(shownReason(wrapper)).toBe('Run is off until the launch values are correct: fix the problem above first.');
    expect(description(wrapper)).toBe(shownReason(wrapper));
    await wrapper.get('[data-testid="launch-size"]').setValue('0');
    expect(description(wrapper)).toBe('Run is off until the launch values are correct: fix the 2 problems above first.');
    await wrapper.get('[data-testid="launch-block-x"]').setValue('256');
    await wrapper.get('[data-testid="launch-size"]').setValue('1000');
    expect(runButton(wrapper).element.disabled).toBe(false);
    expect(description(wrapper)).toBeNull();
  });

  it('says it in Spanish', async () => {
    i18n.global.locale.value = 'es';
    const wrapper = mountForm({ sourceRefusal: { line: 1, column: null } });
    expect(description(wrapper)).toBe('No se puede ejecutar hasta que el código pase la comprobación del taller: corrige antes la línea 1.');
  });
});

describe('the reason said when several hold', () => {
  const all: RunState = { running: true, unavailable: 'no CUDA device', draftLoading: true, sourceRefusal: { line: 1, column: 1 }, launchProblems: 2 };
  it('is the first a student would deal with: the run under way, then the machine, the draft, the source, the launch', () => {
    expect(runBlocker(all)).toEqual({ key: 'running' });
    expect(runBlocker({ ...all, running: false })).toEqual({ key: 'unavailable', reason: 'no CUDA device' });
    expect(runBlocker({ ...all, running: false, unavailable: null })).toEqual({ key: 'draft' });
    expect(runBlocker({ ...all, running: false, unavailable: null, draftLoading: false })).toEqual({ key: 'source', line: 1, column: 1 });
    expect(runBlocker({ ...all, running: false, unavailable: null, draftLoading: false, sourceRefusal: null })).toEqual({ key: 'launch', count: 2 });
  });
});
