// The playground service on this machine, which has no GPU and no NVRTC, through a real compute host and the
// contract's dispatch: the exercises are all there, the status says why nothing can run, a run is refused with that
// reason and nothing is stored, and bad requests name their field.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { dispatch } from '../../../main/common/api-dispatch.ts';
import type { ExerciseDescriptor } from '../../../main/common/playground.ts';
import { createLabHost } from '../../../main/app/lab-host.ts';
import type { LabHost } from '../../../main/app/lab-host.ts';

let host: LabHost;

beforeAll(() => {
  host = createLabHost({ dataDir: mkdtempSync(join(tmpdir(), 'gpu-lab-pg-')), warn: () => undefined });
});
afterAll(async () => {
  await host.dispose();
});

describe('the playground without a GPU', () => {
  it('lists the eight exercises in Spanish over the wire', async () => {
    const r = await dispatch(host, 'playground.listExercises', ['es']);
    expect(r.ok).toBe(true);
    const exercises = (r.ok ? r.value : []) as ExerciseDescriptor[];
    expect(exercises).toHaveLength(8);
    expect(exercises.find((e) => e.id === 'sgemm')?.title).toMatch(/producto/);
    expect(exercises.find((e) => e.id === 'multiply')?.title).toMatch(/Multiplicar elementos/);
  });

  it('says why kernels cannot run here', async () => {
    const status = await host.playground.status();
    expect(status.devices).toEqual([]);
    expect(status.unavailableReason).toMatch(/^no CUDA device: /);
    expect(status.unavailableReason).not.toMatch(/no CUDA device: no CUDA device/);
  }, 30_000);

  it('refuses a run with CUDA_UNAVAILABLE and the reason, and stores nothing', async () => {
    await expect(host.playground.runKernel({ exercise: 'saxpy', source: '__global__ void saxpy() {}' })).rejects.toMatchObject({ code: 'CUDA_UNAVAILABLE', message: expect.stringMatching(/NVIDIA GPU.*none here/) });
    expect(await host.playground.listKernelRuns()).toEqual([]);
  }, 30_000);

  it('refuses a bad request before anything runs, naming the field', async () => {
    const r = await dispatch(host, 'playground.runKernel', [{ exercise: 'saxpy', source: 'x', block: [1, 1, 128] }]);
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { field: 'block' } } });
    const d = await dispatch(host, 'playground.saveDraft', ['fft', 'x']);
    expect(d).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: { argument: 'exercise' } } });
  });

  it('keeps drafts over the wire', async () => {
    expect(await dispatch(host, 'playground.saveDraft', ['reduction', '// my sum'])).toMatchObject({ ok: true });
    expect(await dispatch(host, 'playground.loadDraft', ['reduction'])).toEqual({ ok: true, value: '// my sum' });
  });
});
