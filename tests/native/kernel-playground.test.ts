// The kernel playground's facade without a GPU or NVRTC (this machine, CI): it says why NVRTC is missing instead of
// throwing, refuses to compile with LIBRARY_UNAVAILABLE naming libnvrtc, and refuses every bad argument before the
// addon sees it. cudaLaunchKernel trusts the argument list it gets: a wrong one must never reach it. The launch
// checks run against a stand-in for the addon's kernel object, which records what reaches it.
import { describe, expect, it } from 'vitest';

import type { RawBuffer } from '../../native/addon.ts';
import { ElementBuffer, LoadedKernel, buildInfo, compileKernel, createHostBuffer, cudaInventory, loadKernel, nvrtcInfo } from '../../native/index.ts';
import type { KernelAttributes, LaunchOptions } from '../../native/index.ts';
import type { RawKernel } from '../../native/kernel-playground.ts';
import { GpuLabError } from '../../main/common/errors.ts';
import { expectCode } from './helpers.ts';

const nvrtc = nvrtcInfo();
const SAXPY = 'extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {}\n';

describe.skipIf(nvrtc.available)('NVRTC missing', () => {
  it('nvrtcInfo() says why, naming libnvrtc (or the CPU-only build), without throwing', () => {
    expect(nvrtc.available).toBe(false);
    expect(nvrtc.version).toBeNull();
    expect(nvrtc.reason).toMatch(buildInfo().cuda ? /libnvrtc\.so\.13.*could be opened/ : /^built without CUDA/);
  });

  it('compileKernel is refused with LIBRARY_UNAVAILABLE naming libnvrtc and the dlopen reason', async () => {
    const o = { source: SAXPY, fileName: 'saxpy.cu', entry: 'saxpy', arch: 'sm_90' };
    if (buildInfo().cuda) await expectCode(() => compileKernel(o), 'LIBRARY_UNAVAILABLE', ['libnvrtc', 'cannot open shared object file']);
    else await expectCode(() => compileKernel(o), 'CUDA_UNAVAILABLE');
  });
});

describe('compileKernel arguments', () => {
  const good = { source: SAXPY, fileName: 'saxpy.cu', entry: 'saxpy', arch: 'sm_90' };
  it.each([
    [{ ...good, source: '' }, 'source'],
    // A C string ends at the NUL: the compiler would see half the source.
    [{ ...good, source: 'int a;\0 garbage' }, 'source'],
    [{ ...good, fileName: 'my kernel.cu' }, 'fileName'],
    [{ ...good, entry: '' }, 'entry'],
    [{ ...good, arch: 'compute_90' }, 'arch'],
    [{ ...good, arch: '90' }, 'arch'],
    [{ ...good, options: ['-O3', 7 as unknown as string] }, 'options[1]'],
  ])('%o is INVALID_ARGUMENT naming `%s`, in every build', async (o, field) => {
    await expectCode(() => compileKernel(o), 'INVALID_ARGUMENT', [`\`${field}\``]);
  });
});

describe('loadKernel arguments', () => {
  const image = new Uint8Array([0x7f, 0x45, 0x4c, 0x46]);
  it('refuses an empty or non-byte image, an empty name and a malformed device before any CUDA call', async () => {
    await expectCode(() => loadKernel(new Uint8Array(0), 'saxpy', 'cuda:0'), 'INVALID_ARGUMENT', ['`image`']);
    await expectCode(() => loadKernel([1, 2] as unknown as Uint8Array, 'saxpy', 'cuda:0'), 'INVALID_ARGUMENT', ['`image`', 'an array of length 2']);
    await expectCode(() => loadKernel(image, '', 'cuda:0'), 'INVALID_ARGUMENT', ['`loweredName`']);
    await expectCode(() => loadKernel(image, 'saxpy', 'gpu0' as 'cuda:0'), 'INVALID_ARGUMENT', ['`device`', 'gpu0']);
  });

  it.skipIf(cudaInventory().available)('without a CUDA device it is CUDA_UNAVAILABLE with the reason', async () => {
    await expectCode(() => loadKernel(image, 'saxpy', 'cuda:0'), 'CUDA_UNAVAILABLE', [buildInfo().cuda ? 'no CUDA device' : 'built without CUDA']);
  });
});

// A device buffer's handle as the addon would make it, on a machine that has none.
function fakeDeviceBuffer(device: number, freed = false): ElementBuffer {
  const refuse = (): never => {
    throw new Error('a stand-in buffer holds no memory');
  };
  const raw: RawBuffer = { dtype: 'fp32', length: 16, byteLength: 64, location: 'device', device, freed, fill: refuse, fillAsync: refuse, fillBytesAsync: refuse, read: refuse, readFloat64: refuse, readFloat64At: refuse, write: refuse, free: refuse };
  return new ElementBuffer(raw);
}

interface StandIn {
  kernel: LoadedKernel;
  launches: Parameters<RawKernel['launch']>[0][];
  disposals: () => number;
}

// saxpy(int n, float a, const float* x, float* y): parameters of 4, 4, 8 and 8 bytes.
function standIn(attributes: Partial<KernelAttributes> = {}, reject?: Error): StandIn {
  const launches: StandIn['launches'] = [];
  let disposals = 0;
  const raw: RawKernel = {
    attributes: { registersPerThread: 16, staticSharedBytes: 0, localBytesPerThread: 0, maxThreadsPerBlock: 1024, constBytes: 0, binaryVersion: 90, ...attributes },
    parameterSizes: [4, 4, 8, 8],
    occupancy: () => ({ blocksPerSm: 8, activeWarpsPerSm: 64, maxWarpsPerSm: 64, occupancy: 1 }),
    launch: (spec) => {
      launches.push(spec);
      return reject ? Promise.reject(reject) : Promise.resolve({ samplesMs: Array.from({ length: spec.repeats }, () => 0.01) });
    },
    dispose: () => {
      disposals++;
    },
  };
  return { kernel: new LoadedKernel(raw, 'cuda:0'), launches, disposals: () => disposals };
}

const x = fakeDeviceBuffer(0);
const y = fakeDeviceBuffer(0);
function saxpyLaunch(over: Partial<LaunchOptions> = {}): LaunchOptions {
  return { grid: [1, 1, 1], block: [256, 1, 1], args: [{ i32: 16 }, { f32: 2 }, { buffer: x }, { buffer: y }], warmup: 0, repeats: 1, watchdogMs: 2000, ...over };
}

describe('LoadedKernel.launch arguments', () => {
  it('a good launch reaches the addon with every argument in order and its samples come back', async () => {
    const { kernel, launches } = standIn();
    const r = await kernel.launch(saxpyLaunch({ warmup: 2, repeats: 3, zeroBeforeEach: [y] }));
    expect(r.samplesMs).toHaveLength(3);
    expect(launches).toHaveLength(1);
    const spec = launches[0];
    expect(spec?.args.map((a) => a.kind)).toEqual(['i32', 'f32', 'buffer', 'buffer']);
    expect(spec?.args[2]?.buffer).toBe(x.raw);
    expect(spec?.zero).toEqual([y.raw]);
    expect([spec?.warmup, spec?.repeats, spec?.watchdogMs, spec?.dynamicSharedBytes]).toEqual([2, 3, 2000, 0]);
  });

  it.each([
    [{ block: [2048, 1, 1] }, 'block', ['x ≤ 1024', '[2048, 1, 1]']],
    [{ block: [32, 32, 2] }, 'block', ['at most 1024 threads', '2048 threads']],
    [{ block: [1, 1, 65] }, 'block', ['z ≤ 64']],
    [{ block: [0, 1, 1] }, 'block', ['[0, 1, 1]']],
    [{ grid: [1, 65536, 1] }, 'grid', ['y ≤ 65535', '[1, 65536, 1]']],
    [{ grid: [2 ** 31, 1, 1] }, 'grid', ['x ≤ 2147483647']],
    [{ grid: [1, 1] as unknown as [number, number, number] }, 'grid', ['an array of length 2']],
    [{ args: [{ i32: 16 }, { f32: 2 }, { buffer: x }] }, 'args', ['4 arguments', '4, 4, 8, 8 bytes', 'received 3']],
    [{ args: [{ i32: 16 }, { f64: 2 }, { buffer: x }, { buffer: y }] }, 'args[1]', ['4-byte', 'f64 (8 bytes)']],
    [{ args: [{ u64: 16 }, { f32: 2 }, { buffer: x }, { buffer: y }] }, 'args[0]', ['4-byte', 'u64 (8 bytes)']],
    [{ args: [{ i32: 2 ** 31 }, { f32: 2 }, { buffer: x }, { buffer: y }] }, 'args[0].i32', ['2147483648']],
    [{ args: [{ i32: 1.5 }, { f32: 2 }, { buffer: x }, { buffer: y }] }, 'args[0].i32', ['1.5']],
    [{ args: [{ i32: 1 }, { f32: 1e39 }, { buffer: x }, { buffer: y }] }, 'args[1].f32', ['fp32 range']],
    [{ args: [{ i32: 1 }, { f32: Number.NaN }, { buffer: x }, { buffer: y }] }, 'args[1].f32', ['NaN']],
    [{ args: [{ i32: 1 }, { f32: 1, i32: 1 } as unknown as { f32: number }, { buffer: x }, { buffer: y }] }, 'args[1]', ['{ f32 }']],
    [{ args: [{ i32: 1 }, { f32: 1 }, { buffer: fakeDeviceBuffer(1) }, { buffer: y }] }, 'args[2]', ['a device buffer on cuda:0', 'cuda:1']],
    [{ warmup: -1 }, 'warmup', ['-1']],
    [{ repeats: 0 }, 'repeats', ['0']],
    [{ watchdogMs: 0 }, 'watchdogMs', ['above 0']],
    [{ watchdogMs: Number.POSITIVE_INFINITY }, 'watchdogMs', ['Infinity']],
    [{ dynamicSharedBytes: -4 }, 'dynamicSharedBytes', ['-4']],
  ] as [Partial<LaunchOptions>, string, string[]][])('%o is INVALID_ARGUMENT naming `%s`, and never reaches the addon', async (over, field, mentions) => {
    const { kernel, launches } = standIn();
    await expectCode(() => kernel.launch(saxpyLaunch(over)), 'INVALID_ARGUMENT', [`\`${field}\``, ...mentions]);
    expect(launches).toHaveLength(0);
  });

  it('a kernel whose registers cap its blocks below 1024 threads says so when a block is past the cap', async () => {
    const { kernel, launches } = standIn({ maxThreadsPerBlock: 640, registersPerThread: 96 });
    await expectCode(() => kernel.launch(saxpyLaunch({ block: [32, 32, 1] })), 'INVALID_ARGUMENT', ['`block`', 'at most 640 threads', '96 registers per thread', '1024 threads']);
    await kernel.launch(saxpyLaunch({ block: [640, 1, 1] }));
    expect(launches).toHaveLength(1);
  });

  it('host memory and freed buffers are refused as arguments and as buffers to zero', async () => {
    const { kernel, launches } = standIn();
    const host = createHostBuffer('fp32', 16);
    await expectCode(() => kernel.launch(saxpyLaunch({ args: [{ i32: 1 }, { f32: 1 }, { buffer: host }, { buffer: y }] })), 'INVALID_ARGUMENT', ['`args[2]`', 'a host host buffer']);
    await expectCode(() => kernel.launch(saxpyLaunch({ args: [{ i32: 1 }, { f32: 1 }, { buffer: x }, { buffer: fakeDeviceBuffer(0, true) }] })), 'BUFFER_FREED', ['`args[3]`']);
    await expectCode(() => kernel.launch(saxpyLaunch({ zeroBeforeEach: [host] })), 'INVALID_ARGUMENT', ['`zeroBeforeEach[0]`']);
    expect(launches).toHaveLength(0);
  });

  it('a TIMEOUT from the addon keeps its details: the watchdog and that the device is lost', async () => {
    const timeout = Object.assign(new Error('The kernel was still running after 2000 ms (the watchdog\'s limit)'), { code: 'TIMEOUT', details: { sticky: true, watchdogMs: 2000 } });
    const { kernel } = standIn({}, timeout);
    const err = await kernel.launch(saxpyLaunch()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuLabError);
    expect((err as GpuLabError).toPayload()).toEqual({ code: 'TIMEOUT', message: timeout.message, details: { sticky: true, watchdogMs: 2000 } });
  });

  it('dispose() is idempotent, and a disposed kernel refuses to launch or report occupancy', async () => {
    const { kernel, launches, disposals } = standIn();
    expect(kernel.occupancy(256).blocksPerSm).toBe(8);
    await expectCode(() => kernel.occupancy(1025), 'SIZE_UNSUPPORTED', ['`blockThreads`']);
    kernel.dispose();
    kernel.dispose();
    expect(disposals()).toBe(1);
    await expectCode(() => kernel.launch(saxpyLaunch()), 'INVALID_ARGUMENT', ['disposed']);
    await expectCode(() => kernel.occupancy(256), 'INVALID_ARGUMENT', ['disposed']);
    expect(launches).toHaveLength(0);
  });
});
