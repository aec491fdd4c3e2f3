// Checks a lab's parameters with main as the user types (the lab schema is the one judge, so the message shown is
// the one a run would get): a short pause after the last change, only the latest answer counts. Run asks at once
// (checkNow), without the pause, for the values the form holds at that moment.
import { onScopeDispose, ref, watch } from 'vue';
import type { Ref } from 'vue';

import type { ParamValues } from '../../main/common/lab-descriptor.ts';
import { paramProblemOf, type ParamProblem } from '../../main/common/pure/i18n/param-problem.ts';
import { ApiError, errorText } from '../api/index.ts';
import { useLabsStore } from '../stores/labs.ts';

export type { ParamProblem } from '../../main/common/pure/i18n/param-problem.ts';

export interface ParamCheckOptions {
  lab: Ref<string>;
  values: Ref<ParamValues>;
  delayMs?: number;
}

export interface ParamCheck {
  problem: Ref<ParamProblem | null>;
  checking: Ref<boolean>;
  checkNow: () => Promise<ParamProblem | null>;
}

export function useParamCheck(options: ParamCheckOptions): ParamCheck {
  const labs = useLabsStore();
  const problem = ref<ParamProblem | null>(null);
  const checking = ref(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  // The verdict on the values as they are now; shown unless a newer check has started since.
  async function check(): Promise<ParamProblem | null> {
    const mine = ++generation;
    let found: ParamProblem | null = null;
    try {
      await labs.validateParams(options.lab.value, options.values.value);
    } catch (err) {
      found = err instanceof ApiError ? paramProblemOf(err) : { parameter: null, message: errorText(err) };
    }
    if (mine === generation) {
      problem.value = found;
      checking.value = false;
    }
    return found;
  }

  function checkNow(): Promise<ParamProblem | null> {
    clearTimeout(timer);
    checking.value = true;
    return check();
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
  return { problem, checking, checkNow };
}
