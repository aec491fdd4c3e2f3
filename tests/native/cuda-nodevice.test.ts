// The CUDA half on a machine without a GPU (CI, the build machines): the addon loads, says why there is no CUDA
// device, and refuses CUDA work with CUDA_UNAVAILABLE instead of crashing. Skipped where a CUDA device exists
// (tests/gpu/ covers that case).
import { describe, expect, it } from 'vitest';

import { runCli } from '../../main/cli/main.ts';
import { benchmark, buildInfo, createDeviceBuffer, createHostBuffer, createPinnedBuffer, cudaInventory, devices, telemetry } from '../../native/index.ts';
import { expectCode } from './helpers.ts';

const hasDevice = cudaInventory().available;

function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: (t) => (out += t), err: (t) => (err += t) }, out: () => out, err: () => err };
}

describe.skipIf(hasDevice)('CUDA without a device', () => {
  it('devices() lists the CPU and gives the reason there is no CUDA device', () => {
    const list = devices();
    expect(list.devices.map((d) => d.id)).toEqual(['cpu']);
    expect(list.cudaReason).toMatch(/^(no CUDA device|built without CUDA)/);
    const inv = cudaInventory();
    expect(inv.available).toBe(false);
    expect(inv.devices).toEqual([]);
    // Each library is reported as found or with the reason it is not.
    for (const lib of Object.values(inv.libraries)) expect(lib.found || (lib.reason ?? '').length > 0).toBe(true);
  });

  it('creating device or pinned memory fails with CUDA_UNAVAILABLE and the reason', async () => {
    await expectCode(() => createDeviceBuffer('fp32', 1024, 'cuda:0'), 'CUDA_UNAVAILABLE');
    await expectCode(() => createPinnedBuffer('fp64', 16), 'CUDA_UNAVAILABLE');
  });

  it('argument errors are still named precisely', async () => {
    await expectCode(() => createDeviceBuffer('fp12' as 'fp32', 4), 'UNKNOWN_DTYPE', ['fp12']);
    await expectCode(() => createDeviceBuffer('fp32', -3), 'INVALID_ARGUMENT', ['length', '-3']);
    await expectCode(() => createDeviceBuffer('fp32', 4, 'gpu0' as 'cuda:0'), 'INVALID_ARGUMENT', ['device', 'gpu0']);
  });

  it('CUDA measurements are refused cleanly, and the harness keeps working', async () => {
    await expectCode(() => benchmark({ device: 'cuda:0', op: 'empty' }, { repeats: 3 }), 'CUDA_UNAVAILABLE');
    const x = createHostBuffer('fp32', 8).fillRandom(1);
    const out = createHostBuffer('fp32', 8);
    // Host buffers where device memory is needed: refused before any CUDA call, in every build.
    await expectCode(() => benchmark({ device: 'cuda:0', op: 'exp', path: 'resident', x, out }), 'INVALID_ARGUMENT', ['`x`', 'device memory on cuda:0']);
    const r = await benchmark({ op: 'empty' }, { repeats: 3 });
    expect(r.hostMs).toHaveLength(3);
  });

  it('telemetry says why it has no readings', async () => {
    if (!buildInfo().cuda) {
      await expectCode(() => telemetry('cuda:0'), 'CUDA_UNAVAILABLE');
      return;
    }
    const t = telemetry('cuda:0');
    expect(t.available).toBe(false);
    expect(t.reason).toBeTruthy();
    expect(t.smClockMHz).toBeNull();
  });

  it('`gpu-lab devices` prints the CPU and the reason; `gpu-lab bench --device cuda:0` is a usage error naming the devices there are', async () => {
    const devicesRun = capture();
    expect(await runCli(['devices'], devicesRun.io, {})).toBe(0);
    expect(devicesRun.out()).toMatch(/^id\s+name/);
    expect(devicesRun.out()).toContain('CUDA: not available');
    const json = capture();
    expect(await runCli(['devices', '--json'], json.io, {})).toBe(0);
    expect((JSON.parse(json.out()) as { devices: { id: string }[] }).devices[0]?.id).toBe('cpu');
    const bench = capture();
    expect(await runCli(['bench', '--device', 'cuda:0'], bench.io, {})).toBe(2);
    expect(bench.err()).toMatch(/INVALID_PARAMS: Parameter "device" = "cuda:0" is not allowed: this machine's devices are cpu(, webgpu:\d+)* \((no CUDA device|built without CUDA)/);
  });
});
