// The playground's first words where kernels cannot run: on a machine with a GPU whose NVRTC is missing (the driver
// alone ships none), a link to the devices page, which gives the commands that install it; where there is no GPU,
// installing NVRTC would not help, and no link is offered. Where the device picked is a WebGPU adapter, the playground
// says plainly that its exercises are CUDA and run on the CUDA GPU, or nowhere here, in both languages.
import { RouterLinkStub, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

import type { DeviceSummary } from '../../../../main/common/devices.ts';
import type { PlaygroundStatus } from '../../../../main/common/playground.ts';
import PlaygroundNotice from '../../../../renderer/components/playground/PlaygroundNotice.vue';
import { i18n } from '../../../../renderer/i18n/index.ts';

const noNvrtc: PlaygroundStatus = {
  nvrtc: { available: false, version: null, reason: 'none of libnvrtc.so.13, libnvrtc.so.12 could be opened' },
  devices: [{ id: 'cuda:0', name: 'NVIDIA GeForce RTX 4060', computeCapability: '8.9' }],
  unavailableReason: 'NVRTC, the CUDA run-time compiler, was not found: none of libnvrtc.so.13, libnvrtc.so.12 could be opened',
};

function mountNotice(status: PlaygroundStatus, picked: DeviceSummary | null = null) {
  return mount(PlaygroundNotice, { props: { status, picked }, global: { plugins: [i18n], stubs: { RouterLink: RouterLinkStub } } });
}

const lavapipe: DeviceSummary = { id: 'webgpu:0', kind: 'webgpu', name: 'llvmpipe llvm 15 0 6 256 bits', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: null, details: { software: true } };
const ready: PlaygroundStatus = { nvrtc: { available: true, version: '13.0', reason: null }, devices: [{ id: 'cuda:0', name: 'NVIDIA H100 80GB HBM3', computeCapability: '9.0' }], unavailableReason: null };

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

describe('the playground with a WebGPU adapter picked', () => {
  it('says its exercises are CUDA kernels and run on the CUDA GPU, never on WebGPU, in both languages', () => {
    const text = mountNotice(ready, lavapipe).get('[data-testid="playground-cuda-only"]').text();
    expect(text).toBe('The device picked, webgpu:0 (llvmpipe llvm 15 0 6 256 bits), is a WebGPU adapter. The playground’s exercises are CUDA kernels: they are compiled with NVRTC and run on NVIDIA H100 80GB HBM3, never on WebGPU.');
    i18n.global.locale.value = 'es';
    expect(mountNotice(ready, lavapipe).get('[data-testid="playground-cuda-only"]').text()).toContain('son kernels CUDA: se compilan con NVRTC y se ejecutan en NVIDIA H100 80GB HBM3, nunca en WebGPU');
  });

  it('says there is no CUDA GPU to run them on where there is none, beside why Run is off', () => {
    const none = { ...noNvrtc, devices: [], unavailableReason: 'no CUDA device: no NVIDIA driver is installed (libcuda.so.1 was not found)' };
    const wrapper = mountNotice(none, lavapipe);
    expect(wrapper.get('[data-testid="playground-cuda-only"]').text()).toMatch(/never on WebGPU, and this computer has no CUDA GPU to run them on\.$/);
    expect(wrapper.find('[data-testid="playground-unavailable"]').exists()).toBe(true);
  });

  it('says nothing of WebGPU where a CUDA device or the CPU is picked', () => {
    expect(mountNotice(ready, { ...lavapipe, id: 'cuda:0', kind: 'cuda' }).find('[data-testid="playground-cuda-only"]').exists()).toBe(false);
    expect(mountNotice(ready).find('[data-testid="playground-cuda-only"]').exists()).toBe(false);
  });
});
