// The link to main as the pages meet it through the connection store: the banner says when it has dropped and goes
// when it is back, and a page that listens for run events hears them while it lives and is told to fetch again only
// when the link comes back after a drop (the events sent meanwhile are lost), never on the first open, never after
// it is gone.
import { enableAutoUnmount, mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';

import type { RunEvent } from '../../../../main/common/contract/runs.ts';
import { fixtureRun } from '../charts/synthetic-runs.ts';
import type { fakeMain } from './fake-main.ts';

const main = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeMain> | null }));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const { fakeMain: make } = await import('./fake-main.ts');
  main.current = make();
  return main.current.module();
});

const { default: ConnectionBanner } = await import('../../../../renderer/components/ConnectionBanner.vue');
const { useRunEvents } = await import('../../../../renderer/composables/useRunEvents.ts');
const { i18n } = await import('../../../../renderer/i18n/index.ts');

function fake(): ReturnType<typeof fakeMain> {
  if (!main.current) throw new Error('the api module was not mocked');
  return main.current;
}

enableAutoUnmount(afterEach);
beforeEach(() => fake().setState('open'));

const record = fixtureRun('h100-matmul').record;
const point = record.points[0];
if (!point) throw new Error('the fixture has no point');
const measured: RunEvent = { kind: 'point', runId: record.id, point };
const started: RunEvent = { kind: 'started', runId: record.id, lab: record.lab, device: record.device, params: record.params, pointsTotal: 1 };

function listening() {
  const onEvent = vi.fn<(e: RunEvent) => void>();
  const onReconnect = vi.fn<() => void>();
  const Page = defineComponent({
    setup() {
      useRunEvents({ kinds: ['point'], onEvent, onReconnect });
      return () => h('div');
    },
  });
  return { page: mount(Page, { global: { plugins: [createPinia()] } }), onEvent, onReconnect };
}

describe('the link to main', () => {
  it('shows the banner while the link is down, and not before or after', async () => {
    const banner = mount(ConnectionBanner, { global: { plugins: [createPinia(), i18n] } });
    expect(banner.find('[role="alert"]').exists()).toBe(false);
    fake().setState('closed');
    await banner.vm.$nextTick();
    expect(banner.get('[role="alert"]').text()).toContain('The connection to GPU Lab dropped');
    fake().setState('open');
    await banner.vm.$nextTick();
    expect(banner.find('[role="alert"]').exists()).toBe(false);
  });

  it('hands a page the run events of the kinds it named while it lives', () => {
    const { page, onEvent } = listening();
    fake().emit(started);
    fake().emit(measured);
    expect(onEvent.mock.calls).toEqual([[measured]]);
    page.unmount();
    fake().emit(measured);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('asks a page to fetch again once per return after a drop, never on an open without a drop, never once it is gone', () => {
    const { page, onReconnect } = listening();
    fake().setState('open');
    expect(onReconnect).not.toHaveBeenCalled();
    fake().setState('closed');
    fake().setState('connecting');
    expect(onReconnect).not.toHaveBeenCalled();
    fake().setState('open');
    expect(onReconnect).toHaveBeenCalledTimes(1);
    fake().setState('open');
    expect(onReconnect).toHaveBeenCalledTimes(1);
    page.unmount();
    fake().setState('closed');
    fake().setState('open');
    expect(onReconnect).toHaveBeenCalledTimes(1);
  });

  it('asks a page that opened while the link was down to fetch again when it comes back', () => {
    fake().setState('closed');
    const { onReconnect } = listening();
    fake().setState('open');
    expect(onReconnect).toHaveBeenCalledTimes(1);
  });
});
