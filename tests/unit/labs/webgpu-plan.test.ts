// Runs on a WebGPU adapter as the runner plans them: the vector function's GPU series in float32 with the bytes that
// type moves (and a finding that says so, in both languages), the elementwise ops as on CUDA, and what WebGPU cannot
// run (the course's CUDA Python, the other ops) waived with the reason in both languages; a run asking for a WebGPU
// adapter on a machine without one, or for one it does not have, says why; `gpu-lab devices` lists the adapter, or
// why there is none, in both languages.
import { describe, expect, it } from 'vitest';

import { formatDevices } from '../../../main/cli/devices.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { DeviceReport } from '../../../main/common/device-report.ts';
import type { DeviceList } from '../../../main/common/devices.ts';
import { findLab } from '../../../main/labs/index.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import { checkDevice, noWebgpuWhy, planContext } from '../../../main/runs/lab-runner.ts';
import { CPU, LAVAPIPE, pointFromPlan } from './synthetic.ts';

const withWebgpu: DeviceList = { devices: [CPU, LAVAPIPE], cudaReason: 'built without CUDA: nvcc was not found', webgpuReason: null, blas: 'OpenBLAS' };
const env = (devices: DeviceList): { devices: DeviceList; versions: Record<string, string>; pid: number } => ({ devices, versions: {}, pid: 1 });
const peers = { asked: ['torch', 'cupy', 'numba', 'numpy'] as const, report: null };

function lab(id: string): NonNullable<ReturnType<typeof findLab>> {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}

describe('a run on a WebGPU adapter', () => {
  it('plans the vector function on the GPU in float32, counting float32 bytes, and says why in both languages', () => {
    const vf = lab('vector-function');
    const params = Object.fromEntries(vf.descriptor.parameters.map((p) => [p.name, p.default]));
    const planned = vf.plan(params, planContext(env(withWebgpu), 'webgpu:0'));
    const gpu = planned.filter((p) => p.series.startsWith('gpu-'));
    expect(gpu.map((p) => p.series).sort()).toEqual(['gpu-fused', 'gpu-transfers', 'gpu-unfused']);
    for (const p of gpu) {
      expect(p.device).toBe('webgpu:0');
      expect(p.measurement).toMatchObject({ op: 'vector-function', dtype: 'fp32', device: 'webgpu:0' });
    }
    const fused = gpu.find((p) => p.series === 'gpu-fused');
    const unfused = gpu.find((p) => p.series === 'gpu-unfused');
    expect(fused && fused.work.bytes / fused.work.elements).toBe(12);
    expect(unfused && unfused.work.bytes / unfused.work.elements).toBe(28);
    // On CUDA the same series stay float64.
    const onCuda = vf.plan(params, planContext(env({ ...withWebgpu, devices: [CPU, { ...LAVAPIPE, id: 'cuda:0', kind: 'cuda', details: {} }] }), 'cuda:0'));
    expect(onCuda.find((p) => p.series === 'gpu-fused')?.measurement).toMatchObject({ dtype: 'fp64' });

    const points = planned.filter((p) => p.measurement).map((p) => pointFromPlan(p, p.series === 'gpu-fused' ? 20 : p.series.startsWith('gpu-') ? 60 : 2));
    const f32 = vf.analyze(points, params, LAVAPIPE).findings.find((f) => f.id === 'webgpu-f32');
    if (!f32) throw new Error('no finding says the GPU series ran in float32');
    expect(labMessage(f32.message, 'en')).toContain('WGSL has no 64-bit float type. The fused kernel moves 12 bytes per element, the three passes 28');
    expect(labMessage(f32.message, 'es')).toContain('WGSL no tiene tipo de coma flotante de 64 bits. El kernel fusionado mueve 12 bytes por elemento y las tres pasadas 28');
    const fusion = vf.analyze(points, params, LAVAPIPE).findings.find((f) => f.id === 'fusion');
    expect(fusion && labMessage(fusion.message, 'en')).toMatch(/three passes move 28 bytes per element, the fused kernel 12/);
  });

  it('waives the course’s CUDA Python and the operations WebGPU does not run, with the reason in both languages', () => {
    const vf = lab('vector-function');
    const params = Object.fromEntries(vf.descriptor.parameters.map((p) => [p.name, p.default]));
    const cupy = vf.plan(params, planContext(env(withWebgpu), 'webgpu:0', peers)).find((p) => p.series === 'cupy-fused');
    expect(cupy?.measurement).toBeNull();
    expect(cupy?.waived).toBe('the course’s cupy code runs on CUDA, not on WebGPU');
    expect(cupy?.waivedWhy && labMessage(cupy.waivedWhy, 'es')).toBe('el código de cupy del curso se ejecuta en CUDA, no en WebGPU');

    const matmul = lab('matmul');
    const mparams = Object.fromEntries(matmul.descriptor.parameters.map((p) => [p.name, p.default]));
    const cublas = matmul.plan(mparams, planContext(env(withWebgpu), 'webgpu:0')).filter((p) => p.series === 'gpu-cublas' || p.series === 'gpu-transfers');
    expect(cublas).toHaveLength(2);
    for (const p of cublas) {
      expect(p.measurement).toBeNull();
      expect(p.waived).toBe('cuBLAS is NVIDIA’s library for CUDA: WebGPU has none, and runs GPU Lab’s own WGSL kernels instead');
      expect(p.waivedWhy && labMessage(p.waivedWhy, 'es')).toBe('cuBLAS es la biblioteca de NVIDIA para CUDA: WebGPU no tiene ninguna, y ejecuta en su lugar los kernels WGSL propios de GPU Lab');
    }

    const elementwise = lab('elementwise-breakeven');
    const eparams = Object.fromEntries(elementwise.descriptor.parameters.map((p) => [p.name, p.default]));
    const kernels = elementwise.plan(eparams, planContext(env(withWebgpu), 'webgpu:0')).filter((p) => p.device === 'webgpu:0');
    expect(kernels.length).toBeGreaterThan(0);
    expect(kernels.every((p) => p.measurement?.op !== undefined && ['add', 'mul', 'exp'].includes(p.measurement.op))).toBe(true);
  });

  it('says why a WebGPU adapter asked for is missing', () => {
    const none: DeviceList = { ...withWebgpu, devices: [CPU], webgpuReason: 'WebGPU is turned off (GPU_LAB_WEBGPU=off)' };
    const ctx = planContext(env(none), 'webgpu:0');
    expect(ctx.gpu).toBeNull();
    expect(ctx.gpuWaivedReason).toBe('WebGPU is turned off (GPU_LAB_WEBGPU=off)');
    expect(ctx.gpuWaivedWhy && labMessage(ctx.gpuWaivedWhy, 'es')).toBe('WebGPU está desactivado (GPU_LAB_WEBGPU=off)');
    expect(() => checkDevice(none, 'webgpu:0')).toThrow(/this machine's devices are cpu \(built without CUDA: nvcc was not found\) \(WebGPU is turned off/);
    expect(planContext(env(withWebgpu), 'webgpu:3').gpuWaivedReason).toBe('webgpu:3 is not a device of this machine (it has webgpu:0)');
    const noBindings = noWebgpuWhy("Dawn's Node bindings (npm webgpu) did not load: Cannot find package 'webgpu'");
    expect(labMessage(noBindings, 'es')).toBe("no se cargaron los bindings de Node de Dawn (npm webgpu): Cannot find package 'webgpu'");
    expect(labMessage(noWebgpuWhy('no WebGPU adapter: Vulkan: no adapter; OpenGL ES: no adapter'), 'es')).toBe('no hay ningún adaptador WebGPU: Vulkan: no adapter; OpenGL ES: no adapter');
  });
});

describe('gpu-lab devices with WebGPU', () => {
  const cuda = { available: false, reason: 'built without CUDA', runtimeVersion: null, driverVersion: null, driverCudaVersion: null, libraries: {}, devices: [] };
  const report = (list: DeviceList): DeviceReport => ({ list, cuda, telemetry: [] }) as unknown as DeviceReport;
  const missing = (): { found: false; soname: null; path: null; version: null; reason: string; searched: string[] } => ({ found: false, soname: null, path: null, version: null, reason: 'not here', searched: [] });
  cuda.libraries = { cublas: missing(), nvrtc: missing(), nvml: missing() };

  it('lists the adapter with its backend, and says a software adapter is the CPU, in both languages', () => {
    const en = formatDevices(report(withWebgpu), { locale: 'en', t: cliText('en') });
    expect(en).toMatch(/^webgpu:0\s+llvmpipe llvm 15 0 6 256 bits/m);
    expect(en).toContain('webgpu:0  llvmpipe llvm 15 0 6 256 bits  (mesa, software; Vulkan)');
    expect(en).toContain('  software adapter: this is the CPU, not a GPU');
    expect(en).toMatch(/limits: +buffers up to 4 GiB, 128 MiB bound at once; workgroups of up to 1024 invocations, 65535 per dimension/);
    expect(en).toMatch(/clock: +timestamp queries: device times, at full resolution/);
    const es = formatDevices(report(withWebgpu), { locale: 'es', t: cliText('es') });
    expect(es).toContain('  adaptador por software: es la CPU, no una GPU');
    expect(es).toMatch(/reloj: +consultas de marca de tiempo/);
  });

  it('says why there is no adapter, in both languages, and still lists the CPU', () => {
    const none: DeviceList = { ...withWebgpu, devices: [CPU], webgpuReason: 'WebGPU is turned off (GPU_LAB_WEBGPU=off)' };
    const en = formatDevices(report(none), { locale: 'en', t: cliText('en') });
    expect(en).toMatch(/^cpu\s+Test CPU/m);
    expect(en).toContain('WebGPU: not available — WebGPU is turned off (GPU_LAB_WEBGPU=off)');
    expect(formatDevices(report(none), { locale: 'es', t: cliText('es') })).toContain('WebGPU: no disponible — WebGPU está desactivado (GPU_LAB_WEBGPU=off)');
  });
});
