// The run page's environment names what produced the numbers in words, as the PDF does ("Built with CUDA: yes"), in
// English and Spanish; a key this version does not know is shown as recorded.
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';

import RunEnvironment from '../../../../renderer/components/labs/RunEnvironment.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useLanguageStore } from '../../../../renderer/stores/language.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';

function rows(locale: 'en' | 'es'): Record<string, string> {
  const pinia = createPinia();
  setActivePinia(pinia);
  useLanguageStore().locale = locale;
  i18n.global.locale.value = locale;
  const { record, lab } = fixtureRun('h100-matmul');
  const withUnknown = { ...record, environment: { ...record.environment, versions: { ...record.environment.versions, someFutureKey: '1.2' } } };
  const wrapper = mount(RunEnvironment, { props: { record: withUnknown, lab }, global: { plugins: [pinia, i18n] } });
  return Object.fromEntries(wrapper.findAll('tr').map((tr) => [tr.find('th').text(), tr.find('td').text()]));
}

describe('RunEnvironment', () => {
  it('names the versions in words, in English and Spanish, and shows an unknown key as recorded', () => {
    const en = rows('en');
    expect(en['Built with CUDA']).toBe('yes');
    expect(en['Node-API']).toBe('9');
    expect(en['CUDA supported by the driver']).toBeDefined();
    expect(Object.keys(en)).not.toContain('cudaBuild');
    expect(Object.keys(en)).not.toContain('napi');
    expect(en.someFutureKey).toBe('1.2');
    const es = rows('es');
    expect(es['Compilado con CUDA']).toBe('sí');
    expect(es['BLAS de la CPU']).toMatch(/^OpenBLAS/);
    i18n.global.locale.value = 'en';
  });
});
