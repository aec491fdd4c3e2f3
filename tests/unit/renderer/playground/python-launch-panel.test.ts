// Unit 10's launch from Python in a kernel run as the student reads it: its own row among the comparisons, and the
// sentence comparing it with GPU Lab's launch; where it could not run, what to install, in Spanish too.
import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { msg } from '../../../../main/common/pure/message.ts';
import { setNumberLocale } from '../../../../main/common/pure/locale.ts';
import type { Comparison, KernelRun } from '../../../../main/common/playground.ts';
import KernelRunPanel from '../../../../renderer/components/playground/KernelRunPanel.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { kernelRun, saxpyExercise, saxpyResult, throughput } from './synthetic-kernel-run.ts';

vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({ drawChart: () => ({ type: 'bar', update: () => true, destroy: () => undefined }) }));

const mountPanel = (run: KernelRun) => mount(KernelRunPanel, { props: { run, exercise: saxpyExercise }, global: { plugins: [createPinia(), i18n], stubs: { RouterLink: true } } });

afterEach(() => {
  i18n.global.locale.value = 'en';
  setNumberLocale('en');
});

function withPython(python: Comparison): KernelRun {
  const base = saxpyResult();
  const nvrtc = [1, 1.01, 0.99, 1, 1.02, 0.98, 1, 1.01].map((x) => x * 0.0671);
  return kernelRun({ ...base, throughput: { ...throughput(0.0671, 3350), samplesMs: nvrtc }, comparisons: [...base.comparisons, python] });
}

describe('the launch from Python in a kernel run', () => {
  it('is a row of its own, and a sentence says it was slower as far as the intervals tell', () => {
    const slow = [1, 1.01, 0.99, 1, 1.02, 0.98, 1, 1.01].map((x) => x * 0.134);
    const panel = mountPanel(withPython({ id: 'python-cuda-core', kind: 'python', title: 'Your kernel from Python (cuda.core)', throughput: { ...throughput(0.134, 3350), samplesMs: slow }, verified: true, error: null, implementation: 'cuda.core 1.2.0 (Python 3.12.3)' }));
    const rows = panel.findAll('[data-testid="comparison"]');
    expect(rows.at(-1)?.text()).toContain('Your kernel from Python (cuda.core)');
    expect(panel.get('[data-testid="python-launch-finding"]').text()).toMatch(/^Launched from Python through cuda\.core, your kernel took 134 µs against 67\.1 µs in GPU Lab’s own launch after NVRTC: 2\.00× slower/);
  });

  it('without PyCUDA or cuda.core, says what to install — in Spanish in a Spanish page — and no sentence', () => {
    i18n.global.locale.value = 'es';
    setNumberLocale('es');
    const why = msg('playground.python.missing', { interpreter: '/usr/bin/python3', detail: "pycuda: No module named 'pycuda'; cuda-core: No module named 'cuda'" });
    const panel = mountPanel(withPython({ id: 'python', kind: 'python', title: 'python', throughput: null, verified: false, error: 'not launched from Python: neither PyCUDA nor cuda.core imports', why }));
    expect(panel.findAll('[data-testid="comparison"]').at(-1)?.text()).toMatch(/^Tu kernel desde Python.*No se lanzó desde Python: \/usr\/bin\/python3 no tiene ni PyCUDA ni cuda\.core .*pip install pycuda .*pip install cuda-core\[cu13\]/);
    expect(panel.find('[data-testid="python-launch-finding"]').exists()).toBe(false);
  });
});
