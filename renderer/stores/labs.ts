// The labs main offers, in the app's language, and the kernel sources they name, fetched once each. A change of
// language fetches the labs again: their titles, explanations, parameters and findings' templates are main's words.
// Main also judges a lab's parameters (the lab's schema is the one judge) and holds other machines' results of a lab.
import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';

import type { KernelSourceText, LabTimeBound, ReferenceResult } from '../../main/common/contract/labs.ts';
import type { LabDescriptor, LabId, ParamValues } from '../../main/common/lab-descriptor.ts';
import type { Locale } from '../../main/common/pure/locale.ts';
import { api, errorText } from '../api/index.ts';
import { useLanguageStore } from './language.ts';

export const useLabsStore = defineStore('labs', () => {
  const language = useLanguageStore();
  const labs = shallowRef<LabDescriptor[]>([]);
  const error = ref<string | null>(null);
  const sources = new Map<string, Promise<KernelSourceText>>();
  let loading: Promise<void> | null = null;
  let loadingLocale: Locale | null = null;

  function load(): Promise<void> {
    const locale = language.locale;
    if (loading && loadingLocale === locale) return loading;
    loadingLocale = locale;
    const request: Promise<void> = api.labs
      .listLabs(locale)
      .then((list) => {
        // A quicker answer for a language chosen since is the one to keep.
        if (loading !== request) return;
        labs.value = list;
        error.value = null;
      })
      .catch((err: unknown) => {
        if (loading !== request) return;
        error.value = errorText(err);
        loading = null;
      });
    loading = request;
    return request;
  }

  // Only once the labs were asked for: a store made for one kernel source need not fetch every lab.
  watch(
    () => language.locale,
    () => {
      if (loading) void load();
    },
  );

  function byId(id: string): LabDescriptor | undefined {
    return labs.value.find((l) => l.id === id);
  }

  // A run's lab as the reader reads it: the lab's title in the app's language, else the one the run was recorded with
  // (a lab this version lacks, or before the labs arrive).
  function titleOf(run: { lab: string; labTitle: string }): string {
    return byId(run.lab)?.title ?? run.labTitle;
  }

  function kernelSource(file: string): Promise<KernelSourceText> {
    let source = sources.get(file);
    if (!source) {
      source = api.labs.kernelSource(file);
      source.catch(() => sources.delete(file));
      sources.set(file, source);
    }
    return source;
  }

  // For each lab, the most its run with the defaults takes on `device` (main's bound from the plan's time budgets).
  function timeBounds(device: string): Promise<LabTimeBound[]> {
    return api.labs.timeBounds(device);
  }

  // The values as the lab's schema takes them, or its refusal naming the parameter (composables/useParamCheck.ts).
  const validateParams = (lab: string, values: ParamValues): Promise<ParamValues> => api.labs.validateParams(lab, values);

  const referenceResults = (lab: LabId): Promise<ReferenceResult[]> => api.labs.referenceResults(lab);

  return { labs, error, load, byId, titleOf, kernelSource, timeBounds, validateParams, referenceResults };
});
