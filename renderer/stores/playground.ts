// The kernel playground as main offers it: the exercises in the app's language, whether kernels can be compiled and
// run here, each exercise's stored kernel runs, the run in progress (one request of a few seconds: compile, verify,
// time) and what the last one said, and the student's drafts. The run lives here, not in the page, so that it
// survives the student leaving the page while it runs.
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';

import type { ErrorPayload } from '../../main/common/errors.ts';
import type { ExerciseDescriptor, ExerciseId, KernelRun, KernelRunRequest, KernelRunSummary, PlaygroundStatus } from '../../main/common/playground.ts';
import { api, ApiError, errorText } from '../api/index.ts';
import { useLanguageStore } from './language.ts';

export const usePlaygroundStore = defineStore('playground', () => {
  const language = useLanguageStore();
  const exercises = shallowRef<ExerciseDescriptor[]>([]);
  const error = ref<string | null>(null);
  const status = shallowRef<PlaygroundStatus | null>(null);
  const runs = shallowRef<Partial<Record<ExerciseId, KernelRunSummary[]>>>({});
  const running = ref<ExerciseId | null>(null);
  // This session's newest run of each exercise, and main's refusal of the last request where it refused one.
  const latest = shallowRef<Partial<Record<ExerciseId, KernelRun>>>({});
  const refusal = shallowRef<Partial<Record<ExerciseId, ErrorPayload>>>({});
  // A stored kernel run never changes: fetched once.
  const stored = new Map<string, KernelRun>();

  async function load(): Promise<void> {
    const locale = language.locale;
    const [list, state] = await Promise.allSettled([api.playground.listExercises(locale), api.playground.status()]);
    // A quicker answer for a language chosen since is the one to keep.
    if (locale !== language.locale) return;
    if (list.status === 'fulfilled') exercises.value = list.value;
    if (state.status === 'fulfilled') status.value = state.value;
    const failed = [list, state].find((r) => r.status === 'rejected');
    error.value = failed ? errorText(failed.reason) : null;
  }
  watch(() => language.locale, () => void load());

  function byId(id: string): ExerciseDescriptor | undefined {
    return exercises.value.find((e) => e.id === id);
  }

  async function refreshRuns(exercise: ExerciseId): Promise<void> {
    runs.value = { ...runs.value, [exercise]: await api.playground.listKernelRuns(exercise) };
  }

  async function run(request: KernelRunRequest): Promise<KernelRun | null> {
    const exercise = request.exercise;
    running.value = exercise;
    refusal.value = { ...refusal.value, [exercise]: undefined };
    try {
      const done = await api.playground.runKernel(request);
      stored.set(done.id, done);
      latest.value = { ...latest.value, [exercise]: done };
      await refreshRuns(exercise).catch(() => undefined);
      return done;
    } catch (err) {
      const payload: ErrorPayload = err instanceof ApiError ? { code: err.code, message: err.message } : { code: 'NATIVE_ERROR', message: errorText(err) };
      refusal.value = { ...refusal.value, [exercise]: payload };
      return null;
    } finally {
      running.value = null;
    }
  }

  async function kernelRun(id: string): Promise<KernelRun> {
    const cached = stored.get(id);
    if (cached) return cached;
    const fetched = await api.playground.getKernelRun(id);
    stored.set(id, fetched);
    return fetched;
  }

  async function remove(run: Pick<KernelRunSummary, 'id' | 'exercise'>): Promise<void> {
    await api.playground.deleteKernelRun(run.id);
    stored.delete(run.id);
    runs.value = { ...runs.value, [run.exercise]: (runs.value[run.exercise] ?? []).filter((r) => r.id !== run.id) };
    if (latest.value[run.exercise]?.id === run.id) latest.value = { ...latest.value, [run.exercise]: undefined };
  }

  const loadDraft = (exercise: ExerciseId): Promise<string | null> => api.playground.loadDraft(exercise);
  const saveDraft = (exercise: ExerciseId, source: string): Promise<void> => api.playground.saveDraft(exercise, source);

  return { exercises, error, status, runs, running, latest, refusal, load, byId, refreshRuns, run, kernelRun, remove, loadDraft, saveDraft };
});
