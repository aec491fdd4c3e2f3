// The student's source of one exercise, kept on this computer by main: read when the exercise opens (the starter
// kernel where nothing was saved yet), saved a second after the last keystroke, and at once when the exercise
// changes or the page goes away, so that switching exercises or reloading loses nothing typed.
import { onScopeDispose, ref, watch } from 'vue';

import type { ExerciseDescriptor, ExerciseId } from '../../../main/common/playground.ts';
import { errorText } from '../../api/index.ts';
import { usePlaygroundStore } from '../../stores/playground.ts';

export type DraftState = 'loading' | 'starter' | 'saved' | 'editing' | 'saving' | 'failed';

export function starterOf(exercise: ExerciseDescriptor): string {
  return exercise.kernels.find((k) => k.kind === 'starter')?.text ?? '';
}

export function useKernelDraft(options: { exercise: () => ExerciseDescriptor | undefined; delayMs?: number }) {
  const store = usePlaygroundStore();
  const delay = options.delayMs ?? 1000;
  const source = ref('');
  const state = ref<DraftState>('loading');
  const error = ref<string | null>(null);
  let pending: { exercise: ExerciseId; text: string } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const save = pending;
    if (!save) return;
    pending = null;
    state.value = 'saving';
    try {
      await store.saveDraft(save.exercise, save.text);
      error.value = null;
      // A keystroke while it was saved keeps the state "editing".
      if (!pending) state.value = 'saved';
    } catch (err) {
      error.value = errorText(err);
      state.value = 'failed';
    }
  }

  // The student's edit (or a kernel they chose to load): shown at once, saved once they pause.
  function edit(text: string): void {
    const exercise = options.exercise();
    if (!exercise) return;
    source.value = text;
    pending = { exercise: exercise.id, text };
    state.value = 'editing';
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), delay);
  }

  watch(
    () => options.exercise()?.id,
    async (id) => {
      void flush();
      const exercise = options.exercise();
      if (!id || !exercise) return;
      state.value = 'loading';
      let saved: string | null = null;
      try {
        saved = await store.loadDraft(id);
        error.value = null;
      } catch (err) {
        error.value = errorText(err);
      }
      // Another exercise opened while this one was read: its text is the one to show.
      if (options.exercise()?.id !== id) return;
      source.value = saved ?? starterOf(exercise);
      state.value = saved === null ? 'starter' : 'saved';
    },
    { immediate: true },
  );

  const onPageHide = (): void => void flush();
  window.addEventListener('pagehide', onPageHide);
  onScopeDispose(() => {
    window.removeEventListener('pagehide', onPageHide);
    void flush();
  });

  return { source, state, error, edit, flush };
}
