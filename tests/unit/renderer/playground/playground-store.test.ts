// The playground store against a faked main: a run is "in progress" for its exercise until main answers, then it is
// the exercise's newest run and the list of stored runs is read again; main's refusal is kept with its code for the
// page to show; a deleted run leaves the list and the result panel.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { KernelRun, KernelRunSummary } from '../../../../main/common/playground.ts';
import { ApiError } from '../../../../renderer/api/api-error.ts';
import { usePlaygroundStore } from '../../../../renderer/stores/playground.ts';
import { kernelRun, saxpyResult } from './synthetic-kernel-run.ts';

const playground = vi.hoisted(() => ({
  listExercises: vi.fn(async () => []),
  status: vi.fn(async () => ({ nvrtc: { available: true, version: '13.0', reason: null }, devices: [], unavailableReason: null })),
  runKernel: vi.fn<(request: unknown) => Promise<KernelRun>>(),
  listKernelRuns: vi.fn<(exercise?: string) => Promise<KernelRunSummary[]>>(async () => []),
  getKernelRun: vi.fn<(id: string) => Promise<KernelRun>>(),
  deleteKernelRun: vi.fn(async () => undefined),
  loadDraft: vi.fn(async () => null),
  saveDraft: vi.fn(async () => undefined),
}));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const errors = await import('../../../../renderer/api/api-error.ts');
  return { api: { playground }, ApiError: errors.ApiError, errorText: errors.errorText };
});

const run = kernelRun(saxpyResult());
const summary: KernelRunSummary = { id: run.id, exercise: 'saxpy', createdAt: run.createdAt, status: 'verified', device: 'cuda:0', medianMs: 0.0671, rate: 3000, metric: 'GB/s' };

beforeEach(() => {
  setActivePinia(createPinia());
  vi.clearAllMocks();
});

describe('the playground store', () => {
  it('holds the exercise as running until main answers, then shows the run and reads the stored runs again', async () => {
    let answer: (r: KernelRun) => void = () => undefined;
    playground.runKernel.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    playground.listKernelRuns.mockResolvedValue([summary]);
    const store = usePlaygroundStore();
    const pending = store.run({ exercise: 'saxpy', source: run.source });
    expect(store.running).toBe('saxpy');
    answer(run);
    expect(await pending).toBe(run);
    expect(store.running).toBeNull();
    expect(store.latest.saxpy).toBe(run);
    expect(store.runs.saxpy).toEqual([summary]);
    expect(playground.listKernelRuns).toHaveBeenCalledWith('saxpy');
    // A stored run is never fetched twice.
    expect(await store.kernelRun(run.id)).toBe(run);
    expect(playground.getKernelRun).not.toHaveBeenCalled();
  });

  it('keeps main’s refusal with its code for the exercise, and clears it on the next run', async () => {
    playground.runKernel.mockRejectedValueOnce(new ApiError({ code: 'CUDA_UNAVAILABLE', message: 'This is a recorded H100 session' }));
    const store = usePlaygroundStore();
    expect(await store.run({ exercise: 'saxpy', source: run.source })).toBeNull();
    expect(store.refusal.saxpy).toEqual({ code: 'CUDA_UNAVAILABLE', message: 'This is a recorded H100 session' });
    expect(store.running).toBeNull();
    playground.runKernel.mockResolvedValueOnce(run);
    await store.run({ exercise: 'saxpy', source: run.source });
    expect(store.refusal.saxpy).toBeUndefined();
  });

  it('drops a deleted run from the list and from the result panel', async () => {
    playground.runKernel.mockResolvedValue(run);
    playground.listKernelRuns.mockResolvedValue([summary]);
    const store = usePlaygroundStore();
    await store.run({ exercise: 'saxpy', source: run.source });
    await store.remove(summary);
    expect(playground.deleteKernelRun).toHaveBeenCalledWith(run.id);
    expect(store.runs.saxpy).toEqual([]);
    expect(store.latest.saxpy).toBeUndefined();
  });
});
