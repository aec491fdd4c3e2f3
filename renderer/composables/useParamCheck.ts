// Checks a lab's parameters with main as the user types (the lab schema is the one judge, so the message shown is
// the one a run would get): a short pause after the last change, only the latest answer counts.
import { onScopeDispose, ref, watch } from 'vue';
import type { Ref } from 'vue';

import type { ParamValues } from '../../main/common/lab-descriptor.ts';
import { api, ApiError, errorText } from '../api/index.ts';

export interface ParamProblem {
  // The parameter at fault, or null when the message is about the whole request.
  parameter: string | null;
  // Main's words (English), shown where the app has none of its own for the reason.
  message: string;
  // Why, and what was typed, as main's details say: the form words them in the reader's language (param-problem.ts).
  reason?: string;
  value?: string;
  other?: string;
  otherValue?: string;
}

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
      const details = err instanceof ApiError ? (err.details ?? {}) : {};
      const text = (key: string): string | undefined => (typeof details[key] === 'string' ? (details[key] as string) : undefined);
      problem.value = {
        parameter: text('parameter') ?? null,
        message: err instanceof ApiError ? err.message : errorText(err),
        reason: text('reason'),
        value: text('value'),
        other: text('other'),
        otherValue: text('otherValue'),
      };
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
