// Checks a lab's parameters with main as the user types (the lab schema is the one judge, so the message shown is
// the one a run would get): a short pause after the last change, only the latest answer counts.
import { onScopeDispose, ref, watch } from 'vue';
import type { Ref } from 'vue';

import type { ParamValues } from '../../main/common/lab-descriptor.ts';
import { paramProblemOf, type ParamProblem } from '../../main/common/i18n/param-problem.ts';
import { api, ApiError, errorText } from '../api/index.ts';

export type { ParamProblem } from '../../main/common/i18n/param-problem.ts';

export interface ParamCheckOptions {
  lab: Ref<string>;
  values: Ref<ParamValues>;
  delayMs?: number;
}

export function useParamCheck(options: ParamCheckOptions): { problem: Ref<ParamProblem | null>; checking: Ref<boolean> } {
  const problem = ref<ParamProblem | null>(null);
  const checking = ref(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  async function check(): Promise<void> {
    const mine = ++generation;
    try {
      await api.labs.validateParams(options.lab.value, options.values.value);
      if (mine === generation) problem.value = null;
    } catch (err) {
      if (mine !== generation) return;
      problem.value = err instanceof ApiError ? paramProblemOf(err) : { parameter: null, message: errorText(err) };
    } finally {
      if (mine === generation) checking.value = false;
    }
  }

  watch(
    [options.lab, options.values],
    () => {
      checking.value = true;
      clearTimeout(timer);
      timer = setTimeout(() => void check(), options.delayMs ?? 150);
    },
    { deep: true, immediate: true },
  );
  onScopeDispose(() => clearTimeout(timer));
  return { problem, checking };
}
