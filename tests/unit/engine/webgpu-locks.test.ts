// The device locks of a WebGPU run (engine/device-lock.ts lockNames), from what WebGPU tells of the adapter and
// nothing else: this machine's lavapipe takes its own lock and the CPU's (it is a program on the CPU) and no CUDA
// device's; an NVIDIA adapter, which WebGPU cannot match to a CUDA device (no UUID, PCI bus id or LUID), takes every
// CUDA device's; and two runs wanting one of those locks take turns through the same lock files as CPU and CUDA runs,
// waiting or refused with DEVICE_BUSY.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { DeviceList, DeviceSummary } from '../../../main/common/devices.ts';
import { GpuLabError } from '../../../main/common/errors.ts';
import { adapterLockKey } from '../../../main/common/webgpu-adapters.ts';
import type { AdapterFacts } from '../../../main/common/webgpu-adapters.ts';
import { DeviceLocks, lockNames } from '../../../main/engine/device-lock.ts';
import { webgpuAdapters } from '../../../main/host/webgpu/dawn.ts';
import { adapterDevice } from '../../../main/host/webgpu/listing.ts';

const cuda = (id: string): DeviceSummary => ({ id, kind: 'cuda', name: 'NVIDIA GeForce RTX 3070', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: null, details: {} });
const cpu: DeviceSummary = { id: 'cpu', kind: 'cpu', name: 'CPU', peakGflopsFp32: null, peakGflopsFp64: null, peakMemoryGBps: null, memoryBytes: null, details: {} };

// A machine with two CUDA devices and the WebGPU adapter `facts` as webgpu:0, listed as the compute host lists it.
function machine(facts: AdapterFacts): DeviceList {
  const adapter = adapterDevice({ id: 'webgpu:0', backend: 'Vulkan', featureLevel: 'core', facts, features: [], limits: {} });
  return { devices: [cpu, cuda('cuda:0'), cuda('cuda:1'), adapter], cudaReason: null, blas: '' };
}

// What Dawn reports of an RTX 3070 through Vulkan (vendor 0x10de is "nvidia" in Dawn's table).
const rtx3070: AdapterFacts = { vendor: 'nvidia', architecture: 'ampere', device: 'NVIDIA GeForce RTX 3070', description: 'NVIDIA: 560.35.03 560.35.3.0', isFallbackAdapter: false };
const lockDir = (): string => mkdtempSync(join(tmpdir(), 'gpu-lab-webgpu-locks-'));

describe('the locks of a WebGPU run', () => {
  it('on this machine’s lavapipe: its own lock and the CPU’s, no CUDA device’s', async () => {
    const found = (await webgpuAdapters()).adapters[0];
    if (!found) throw new Error('no WebGPU adapter: scripts/bootstrap.sh installs lavapipe');
    const list = machine(found.facts);
    const key = adapterLockKey(found.facts);
    expect(key).toMatch(/^webgpu:llvmpipe-/);
    expect(lockNames(['webgpu:0'], list).sort()).toEqual(['cpu', key]);
    // A run on the CPU and the adapter: the CPU once.
    expect(lockNames(['cpu', 'webgpu:0'], list).sort()).toEqual(['cpu', key]);
  });

  it('on an NVIDIA adapter: its own lock and every CUDA device’s, not the CPU’s', () => {
    const list = machine(rtx3070);
    expect(lockNames(['webgpu:0'], list).sort()).toEqual(['cuda:0', 'cuda:1', 'webgpu:nvidia-geforce-rtx-3070']);
    // The same when Dawn names the vendor by its PCI id, or only the device names NVIDIA.
    expect(lockNames(['webgpu:0'], machine({ ...rtx3070, vendor: '0x10de', device: 'GeForce RTX 3070' }))).toEqual(expect.arrayContaining(['cuda:0', 'cuda:1']));
    expect(lockNames(['webgpu:0'], machine({ ...rtx3070, vendor: '' }))).toEqual(expect.arrayContaining(['cuda:0', 'cuda:1']));
    // A CUDA run locks its own device alone.
    expect(lockNames(['cpu', 'cuda:1'], list)).toEqual(['cpu', 'cuda:1']);
  });

  it('takes every CUDA device’s lock for any NVIDIA adapter, and none for any other GPU', () => {
    const text = fc.string({ maxLength: 40 });
    const nvidia = fc.record({ vendor: fc.constantFrom('nvidia', 'NVIDIA', '0x10de', '0x10DE'), architecture: text, device: text, description: text, isFallbackAdapter: fc.constant(false) });
    const other = fc.record({
      vendor: fc.constantFrom('amd', 'intel', 'apple', 'qualcomm', 'arm', '0x1002', '0x8086'),
      architecture: fc.constantFrom('rdna-3', 'gen-12lp', 'common-3', ''),
      device: fc.constantFrom('AMD Radeon RX 7900 XTX', 'Intel(R) Arc(TM) A770 Graphics', 'Apple M2', ''),
      description: text,
      isFallbackAdapter: fc.constant(false),
    });
    fc.assert(
      fc.property(nvidia, (facts) => {
        const locks = lockNames(['webgpu:0'], machine(facts));
        expect(locks).toEqual(expect.arrayContaining(['cuda:0', 'cuda:1', adapterLockKey(facts)]));
      }),
    );
    fc.assert(
      fc.property(other, (facts) => {
        expect(lockNames(['webgpu:0'], machine(facts))).toEqual([adapterLockKey(facts)]);
      }),
    );
  });

  it('makes an NVIDIA adapter’s run and a CUDA run take turns: refused with DEVICE_BUSY, or waiting until the other ends', async () => {
    const dir = lockDir();
    const nvidiaRun = lockNames(['cpu', 'webgpu:0'], machine(rtx3070));
    const cudaRun = await new DeviceLocks({ dir }).acquire(['cuda:1'], 'lab', 'matmul');
    const refused = new DeviceLocks({ dir }).acquire(nvidiaRun, 'lab', 'vector-function', { wait: false });
    await expect(refused).rejects.toBeInstanceOf(GpuLabError);
    await expect(refused).rejects.toMatchObject({ code: 'DEVICE_BUSY', details: { device: 'cuda:1', use: 'lab', name: 'matmul' } });

    const waited: string[] = [];
    const waiting = new DeviceLocks({ dir, pollMs: 20 }).acquire(nvidiaRun, 'lab', 'vector-function', { onWait: (h) => waited.push(`${h.device} ${h.name}`) });
    await new Promise((r) => setTimeout(r, 200));
    expect(waited).toEqual(['cuda:1 matmul']);
    await cudaRun.release();
    const lease = await waiting;
    expect([...lease.devices].sort()).toEqual([...nvidiaRun].sort());
    // And the other way round: a CUDA run waits for the WebGPU run on the same GPU.
    await expect(new DeviceLocks({ dir }).acquire(['cuda:0'], 'kernel', 'saxpy', { wait: false })).rejects.toMatchObject({ code: 'DEVICE_BUSY', details: { device: 'cuda:0', name: 'vector-function' } });
    await lease.release();
  });

  it('lets a lavapipe run and a CUDA run measure at once, and makes a lavapipe run and a CPU run take turns', async () => {
    const found = (await webgpuAdapters()).adapters[0];
    if (!found) throw new Error('no WebGPU adapter: scripts/bootstrap.sh installs lavapipe');
    const dir = lockDir();
    const lavapipeRun = lockNames(['webgpu:0'], machine(found.facts));
    const cudaRun = await new DeviceLocks({ dir }).acquire(['cuda:0', 'cuda:1'], 'lab', 'matmul');
    const lease = await new DeviceLocks({ dir }).acquire(lavapipeRun, 'lab', 'vector-function', { wait: false });
    await lease.release();
    await cudaRun.release();
    const cpuRun = await new DeviceLocks({ dir }).acquire(['cpu'], 'bench', 'cpu');
    await expect(new DeviceLocks({ dir }).acquire(lavapipeRun, 'lab', 'vector-function', { wait: false })).rejects.toMatchObject({ code: 'DEVICE_BUSY', details: { device: 'cpu', use: 'bench' } });
    await cpuRun.release();
  });
});
