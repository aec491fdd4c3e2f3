// The transfer lab on a WebGPU adapter as the runner plans and reads it: WebGPU's own copies from pageable memory
// (writeBuffer and a mapped upload buffer up, a mapped staging buffer down) in place of cudaMemcpy's, device→device as
// on CUDA, pinned memory waived with the reason in both languages, sizes past the adapter's maxBufferSize and sizes
// that are not whole 4-byte words waived naming why; the copies read against no PCIe peak (WebGPU does not tell the
// bus); and the sentence on the two ways up says which is faster only where the medians' intervals separate
// (fast-check over medians).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareTimes, estimateOf } from '../../../main/common/pure/claims.ts';
import type { DeviceList } from '../../../main/common/devices.ts';
import { findLab } from '../../../main/labs/index.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { CPU, GPU, LAVAPIPE, pointFromPlan } from './synthetic.ts';

const list = (gpu: typeof LAVAPIPE | typeof GPU): DeviceList => ({ devices: [CPU, gpu], cudaReason: null, webgpuReason: null, blas: 'OpenBLAS' });
const env = (devices: DeviceList): { devices: DeviceList; versions: Record<string, string>; pid: number } => ({ devices, versions: {}, pid: 1 });
const transfer = findLab('transfer');
if (!transfer) throw new Error('no transfer lab');
const defaults = Object.fromEntries(transfer.descriptor.parameters.map((p) => [p.name, p.default]));

describe('transfer on WebGPU', () => {
  it('plans WebGPU’s copies and device→device, waives pinned memory with the reason, and reads no PCIe peak', () => {
    const planned = transfer.plan(defaults, planContext(env(list(LAVAPIPE)), 'webgpu:0'));
    const measured = [...new Set(planned.filter((p) => p.measurement).map((p) => p.series))];
    expect(measured).toEqual(['webgpu-h2d-write-buffer', 'webgpu-h2d-mapped', 'webgpu-d2h-mapped', 'd2d']);
    expect(planned.find((p) => p.series === 'webgpu-h2d-mapped')?.measurement).toMatchObject({ op: 'copy', direction: 'h2d', upload: 'mapped', hostMemory: 'pageable', mode: 'sync' });
    // cudaMemcpy's pageable copies have WebGPU's in their place.
    expect(planned.some((p) => p.series.endsWith('-pageable-sync') || p.series.endsWith('-pageable-async'))).toBe(false);
    const pinned = planned.filter((p) => p.series.includes('-pinned-'));
    expect(pinned.length).toBeGreaterThan(0);
    for (const p of pinned) {
      expect(p.measurement).toBeNull();
      expect(p.waived).toBe('WebGPU has no pinned (page-locked) host memory: a program hands it ordinary memory, or maps a buffer WebGPU allocates');
      expect(p.waivedWhy && labMessage(p.waivedWhy, 'es')).toBe('WebGPU no tiene memoria del host fijada (page-locked): un programa le entrega memoria corriente, o mapea un búfer que reserva WebGPU');
    }
    // Host↔device copies have no bus figure to read against on WebGPU; device→device none for a software adapter.
    expect(planned.filter((p) => p.measurement).every((p) => p.peak === null)).toBe(true);
    // On CUDA, none of WebGPU's series.
    const onCuda = transfer.plan(defaults, planContext(env(list(GPU)), 'cuda:0'));
    expect(onCuda.some((p) => p.series.startsWith('webgpu-'))).toBe(false);
  });

  it('waives the sizes past the adapter’s maxBufferSize and those that are not whole words, naming why', () => {
    const small = { ...LAVAPIPE, details: { ...LAVAPIPE.details, 'limit.maxBufferSize': 8 << 20 } };
    const planned = transfer.plan({ ...defaults, minBytes: 1030, maxBytes: 1 << 26 }, planContext(env(list(small)), 'webgpu:0'));
    const over = planned.filter((p) => p.series === 'webgpu-h2d-write-buffer' && (p.x ?? 0) > 8 << 20);
    expect(over.length).toBeGreaterThan(0);
    for (const p of over) {
      expect(p.waived).toMatch(/^a copy of .+ needs a buffer larger than this adapter’s maxBufferSize \(8 MiB\)$/);
      expect(p.waivedWhy && labMessage(p.waivedWhy, 'es')).toMatch(/necesita un búfer mayor que el maxBufferSize de este adaptador \(8 MiB\)$/);
    }
    // 1030 bytes, and 4 × 1030 …: 1030 is not a multiple of 4, its multiples by 4 are.
    const odd = planned.find((p) => p.series === 'd2d' && p.x === 1030);
    expect(odd?.waived).toBe('WebGPU copies whole 4-byte words, and 1,030 bytes are not a multiple of 4');
    expect(planned.find((p) => p.series === 'd2d' && p.x === 4120)?.measurement).not.toBeNull();
  });

  it('says which way up is faster only where the two medians’ intervals separate, in both languages', () => {
    const planned = transfer.plan({ ...defaults, maxBytes: 4096 }, planContext(env(list(LAVAPIPE)), 'webgpu:0'));
    const at = (series: string): NonNullable<(typeof planned)[number]> => {
      const p = planned.find((q) => q.series === series && q.x === 4096);
      if (!p) throw new Error(`no ${series}`);
      return p;
    };
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 0.3, max: 3, noNaN: true }), (writtenMs, ratio) => {
        const written = pointFromPlan(at('webgpu-h2d-write-buffer'), writtenMs);
        const mapped = pointFromPlan(at('webgpu-h2d-mapped'), writtenMs * ratio);
        const f = transfer.analyze([written, mapped], { ...defaults, maxBytes: 4096 }, LAVAPIPE).findings.find((x) => x.id === 'webgpu-upload');
        const ew = estimateOf(written);
        const em = estimateOf(mapped);
        if (!f || !ew || !em) throw new Error('no finding on the ways up');
        const en = labMessage(f.message, 'en');
        const order = compareTimes(ew, em);
        expect(en.includes('writeBuffer (') && en.includes('takes less time than filling')).toBe(order === 'faster');
        expect(en.includes('takes less time than writeBuffer')).toBe(order === 'slower');
        expect(en.includes('cannot be told apart')).toBe(order === 'indistinguishable');
        expect(labMessage(f.message, 'es').includes('no se distinguen')).toBe(order === 'indistinguishable');
      }),
    );
  });
});
