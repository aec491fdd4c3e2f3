// A kernel run's result as the student reads it: a verified run with its occupancy, its rate and every comparison
// (one without a figure says why); a wrong result with the first bad elements where they sit, an element never
// written called so; a kernel stopped by the watchdog, with the compute host's restart said in words.
import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { describe, expect, it, vi } from 'vitest';

import type { KernelRun } from '../../../../main/common/playground.ts';
import KernelRunPanel from '../../../../renderer/components/playground/KernelRunPanel.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { kernelRun, saxpyResult } from './synthetic-kernel-run.ts';

// Chart.js is replaced at its module boundary: the chart's configuration is tested as a function elsewhere.
vi.mock('../../../../renderer/components/charts/chart-setup.ts', () => ({ drawChart: () => ({ type: 'bar', update: () => true, destroy: () => undefined }) }));

function mountPanel(run: KernelRun) {
  return mount(KernelRunPanel, { props: { run, metric: 'GB/s' }, global: { plugins: [createPinia(), i18n], stubs: { RouterLink: true } } });
}

describe('a kernel run’s result', () => {
  it('shows a verified run: the occupancy, the rate, the share of the peak and the kernels beside it', () => {
    const wrapper = mountPanel(kernelRun(saxpyResult()));
    expect(wrapper.get('[data-testid="kernel-run-badge"]').text()).toBe('Verified');
    const fact = (key: string) => wrapper.get(`[data-testid="launch-${key}"] dd`).text();
    expect([fact('occupancy'), fact('grid'), fact('warps'), fact('registers')]).toEqual(['100 %', '65536 × 1 × 1', '64 of 64', '16']);
    expect(wrapper.get('[data-testid="throughput-rate"]').text()).toBe('3.000 TB/s');
    expect(wrapper.get('[data-testid="throughput-peak"]').text()).toBe('90 %');
    const rows = wrapper.findAll('[data-testid="comparison"]').map((r) => r.findAll('th, td').map((c) => c.text().replace(/\s+/g, ' ')));
    // The reference at 3100 GB/s against yours at 3000: yours reaches 0.97× of it.
    expect(rows).toEqual([
      ['Reference: float4 loads reference', '64.94 µs', '3.100 TB/s', '93 %', '0.97×'],
      ['Built-in SAXPY built-in', '68.25 µs', '2.950 TB/s', '88 %', '1.02×'],
      ['cublasSaxpy library', 'No figure: no cuBLAS on this machine'],
    ]);
    expect(wrapper.find('[data-testid="mismatches"]').exists()).toBe(false);
  });

  it('lists the first wrong elements with their row and column, and calls an unwritten one so', () => {
    const result = saxpyResult({
      throughput: null,
      comparisons: [],
      verification: {
        ok: false,
        checked: 1024,
        total: 1024 * 1024,
        method: '1024 elements at random',
        tolerance: '1e-6 relative',
        mismatchCount: 32,
        maxRelativeError: 0.5,
        mismatches: [
          { index: 1023, row: 0, col: 1023, got: null, expected: 3.5 },
          { index: 2047, row: 1, col: 1023, got: 2.25, expected: 4.5 },
        ],
      },
    });
    const wrapper = mountPanel(kernelRun(result, { status: 'verification-failed' }));
    expect(wrapper.get('[data-testid="kernel-run-badge"]').text()).toBe('Wrong result');
    expect(wrapper.get('[data-testid="verification-verdict"]').text()).toBe('The output is wrong: 32 elements differ from the CPU reference.');
    const cells = wrapper.findAll('[data-testid="mismatch"]').map((r) => r.findAll('td').map((td) => td.text()));
    expect(cells).toEqual([
      ['1023', '0', '1023', 'NaN, never written', '3.5'],
      ['2047', '1', '1023', '2.25', '4.5'],
    ]);
    expect(wrapper.text()).toContain('Checked 1.02 k of 1.05 M elements (1024 elements at random).');
    expect(wrapper.find('[data-testid="throughput"]').exists()).toBe(false);
  });

  it('says the compute host was restarted when the watchdog stopped the kernel, and that nothing else was lost', () => {
    const run = kernelRun(null, { status: 'failed', error: { code: 'TIMEOUT', message: 'The kernel ran past the 10 s watchdog' } });
    const error = mountPanel(run).get('[data-testid="kernel-run-error"]');
    expect(error.text()).toContain('TIMEOUT: The kernel ran past the 10 s watchdog');
    expect(error.text()).toContain('The compute host that ran it was restarted; nothing else was lost');
    expect(error.attributes('role')).toBe('alert');
  });
});
