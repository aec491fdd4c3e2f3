// RunProgress: the point being measured reads "Measuring: …"; a run waiting for a device another run holds says
// for whom it waits in its own words, in the reader's language, never as a point being measured.
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';

import type { RunProgress as Progress } from '../../../../main/common/contract/runs.ts';
import { waitingMessage } from '../../../../main/engine/device-lock.ts';
import { labMessages } from '../../../../main/labs/lab-text.ts';
import { msg } from '../../../../main/common/pure/message.ts';
import RunProgress from '../../../../renderer/components/labs/RunProgress.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';
import { useLanguageStore } from '../../../../renderer/stores/language.ts';

const holder = { user: 'ana', pid: 4121, startTicks: 1, host: 'h', use: 'lab' as const, name: 'matmul', device: 'cuda:0', since: '2026-11-26T05:43:32Z', token: 't' };

function mountProgress(progress: Progress, locale: 'en' | 'es') {
  const pinia = createPinia();
  setActivePinia(pinia);
  useLanguageStore().locale = locale;
  return mount(RunProgress, { props: { progress, elapsedSeconds: 3, points: 0, messages: labMessages('matmul', locale) }, global: { plugins: [pinia, i18n] } });
}

describe('RunProgress', () => {
  it('says a waiting run waits, and for whom, in English and Spanish', () => {
    const progress: Progress = { pointsDone: 0, pointsTotal: 5, fraction: 0, etaSeconds: null, current: waitingMessage(holder) };
    expect(mountProgress(progress, 'en').get('.current').text()).toBe('waiting for cuda:0: ana (pid 4121) is running the matmul lab there, since 2026-11-26T05:43:32Z');
    expect(mountProgress(progress, 'es').get('.current').text()).toBe('esperando a cuda:0: ana (pid 4121) está ejecutando el laboratorio matmul ahí desde 2026-11-26T05:43:32Z');
    useLanguageStore().locale = 'en';
  });

  it('names the point being measured as such', () => {
    const progress: Progress = { pointsDone: 1, pointsTotal: 5, fraction: 0.2, etaSeconds: 4, current: msg('common.run.analysis') };
    expect(mountProgress(progress, 'en').get('.current').text()).toBe('Measuring: the analysis');
  });
});
