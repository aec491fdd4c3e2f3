// The playground's first words where kernels cannot run: on a machine with a GPU whose NVRTC is missing (the driver
// alone ships none), a link to the devices page, which gives the commands that install it; where there is no GPU,
// installing NVRTC would not help, and no link is offered.
import { RouterLinkStub, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

import type { PlaygroundStatus } from '../../../../main/common/playground.ts';
import PlaygroundNotice from '../../../../renderer/components/playground/PlaygroundNotice.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';

const noNvrtc: PlaygroundStatus = {
  nvrtc: { available: false, version: null, reason: 'none of libnvrtc.so.13, libnvrtc.so.12 could be opened' },
  devices: [{ id: 'cuda:0', name: 'NVIDIA GeForce RTX 4060', computeCapability: '8.9' }],
  unavailableReason: 'NVRTC, the CUDA run-time compiler, was not found: none of libnvrtc.so.13, libnvrtc.so.12 could be opened',
};

function mountNotice(status: PlaygroundStatus) {
  return mount(PlaygroundNotice, { props: { status }, global: { plugins: [i18n], stubs: { RouterLink: RouterLinkStub } } });
}

afterEach(() => {
  i18n.global.locale.value = 'en';
});

describe('the playground without NVRTC', () => {
  it('links to the devices page, which says how to install it', () => {
    const link = mountNotice(noNvrtc).getComponent(RouterLinkStub);
    expect(link.props('to')).toBe('/devices');
    expect(link.text()).toBe('How to install NVRTC: the Devices page');
    i18n.global.locale.value = 'es';
    expect(mountNotice(noNvrtc).getComponent(RouterLinkStub).text()).toBe('Cómo instalar NVRTC: la página de Dispositivos');
  });

  it('offers no link where there is no GPU to compile for', () => {
    const wrapper = mountNotice({ ...noNvrtc, devices: [], unavailableReason: 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)' });
    expect(wrapper.get('[data-testid="playground-unavailable"]').text()).toContain('no NVIDIA driver is installed');
    expect(wrapper.findComponent(RouterLinkStub).exists()).toBe(false);
  });
});
