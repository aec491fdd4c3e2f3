// What GPU Lab makes of a WebGPU adapter from WebGPU's four strings: a software adapter is the CPU and has no peak of
// its own, a known part has its datasheet's peaks with the arithmetic, anything else "no peak known" (never a guess),
// and the same GPU is the same lock whichever backend reports it (the locks a run takes: engine/webgpu-locks.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { adapterLockKey, adapterName, adapterPeaks, isSoftwareAdapterFacts } from '../../../main/common/webgpu-adapters.ts';
import type { AdapterFacts } from '../../../main/common/webgpu-adapters.ts';

const facts = (over: Partial<AdapterFacts>): AdapterFacts => ({ vendor: '', architecture: '', device: '', description: '', isFallbackAdapter: false, ...over });
const lavapipe = facts({ vendor: 'mesa', architecture: 'software', device: 'llvmpipe-llvm-15-0-6-256-bits-', description: 'llvmpipe: Mesa 25.0.7 (LLVM 15.0.6)', isFallbackAdapter: true });

describe('WebGPU adapters', () => {
  it('reads lavapipe, SwiftShader and a GL llvmpipe that is no fallback adapter as the CPU, with no peak', () => {
    expect(isSoftwareAdapterFacts(lavapipe)).toBe(true);
    expect(isSoftwareAdapterFacts(facts({ vendor: 'google', architecture: 'swiftshader', device: 'swiftshader-device', isFallbackAdapter: true }))).toBe(true);
    expect(isSoftwareAdapterFacts(facts({ vendor: 'mesa', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }))).toBe(true);
    expect(isSoftwareAdapterFacts(facts({ vendor: 'nvidia', architecture: 'ada', device: 'NVIDIA GeForce RTX 4090' }))).toBe(false);
    const peaks = adapterPeaks(lavapipe);
    expect(peaks.part).toBeNull();
    expect(peaks.fp32Gflops.value).toBeNull();
    expect(peaks.memoryGBps.formula).toMatch(/^no peak known: a software adapter runs on the CPU/);
  });

  it('gives a known part its datasheet peaks with the arithmetic, whatever case or punctuation Dawn reports', () => {
    const rtx = adapterPeaks(facts({ vendor: 'nvidia', device: 'NVIDIA GeForce RTX 4090' }));
    expect(rtx.part).toBe('NVIDIA GeForce RTX 4090');
    expect(rtx.fp32Gflops.value).toBeCloseTo((16384 * 2 * 2520) / 1000, 6);
    expect(rtx.memoryGBps.value).toBeCloseTo(1008, 6);
    expect(rtx.memoryGBps.formula).toContain('21 Gb/s × 384 bit / 8 = 1008 GB/s');
    const radv = adapterPeaks(facts({ vendor: 'amd', device: 'AMD Radeon RX 7900 XTX (RADV NAVI31)' }));
    expect(radv.fp32Gflops.formula).toContain('× 2 (dual issue)');
    // Apple tells the memory's rate, not the GPU cores' count: no FP32 figure.
    const m2 = adapterPeaks(facts({ vendor: 'apple', device: 'Apple M2 Pro' }));
    expect(m2.memoryGBps.value).toBe(200);
    expect(m2.fp32Gflops.value).toBeNull();
    // A name that covers parts with different memories has no memory peak.
    expect(adapterPeaks(facts({ vendor: 'apple', device: 'Apple M3 Max' })).memoryGBps.value).toBeNull();
    expect(adapterPeaks(facts({ vendor: 'nvidia', device: 'NVIDIA GeForce RTX 4070' })).memoryGBps.value).toBeNull();
  });

  it('never guesses: a name not in the table, or a software adapter named like a GPU, has no peak', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), fc.boolean(), (device, description, fallback) => {
        const a = facts({ device, description, isFallbackAdapter: fallback });
        const peaks = adapterPeaks(a);
        if (peaks.part === null) {
          expect(peaks.fp32Gflops.value).toBeNull();
          expect(peaks.memoryGBps.value).toBeNull();
          expect(peaks.fp32Gflops.formula).toMatch(/^no peak known/);
        }
        if (fallback) expect(peaks.part).toBeNull();
      }),
    );
    expect(adapterPeaks(facts({ device: 'NVIDIA GeForce RTX 4090', isFallbackAdapter: true })).part).toBeNull();
    expect(adapterPeaks(facts({ device: 'NVIDIA GeForce RTX 4090 Laptop GPU' })).part).toBeNull();
  });

  it('names the adapter and keys its lock by its name, not by the backend or its place in the list', () => {
    expect(adapterName(lavapipe)).toBe('llvmpipe llvm 15 0 6 256 bits');
    expect(adapterName(facts({ description: 'Intel(R) UHD Graphics 620' }))).toBe('Intel(R) UHD Graphics 620');
    const viaVulkan = adapterLockKey(facts({ device: 'NVIDIA GeForce RTX 3070', description: 'Vulkan driver' }));
    const viaGl = adapterLockKey(facts({ device: 'nvidia-geforce-rtx-3070', description: 'OpenGL ES 3.2' }));
    expect(viaVulkan).toBe(viaGl);
    expect(viaVulkan).toMatch(/^webgpu:[a-z0-9-]{1,56}$/);
  });
});
