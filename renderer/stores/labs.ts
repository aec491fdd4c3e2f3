// The labs main offers, and the kernel sources they name, fetched once each.
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

import type { KernelSourceText } from '../../main/common/contract.ts';
import type { LabDescriptor } from '../../main/common/lab-descriptor.ts';
import { api, errorText } from '../api/index.ts';

export const useLabsStore = defineStore('labs', () => {
  const labs = shallowRef<LabDescriptor[]>([]);
  const error = ref<string | null>(null);
  const sources = new Map<string, Promise<KernelSourceText>>();
  let loading: Promise<void> | null = null;

  function load(): Promise<void> {
    loading ??= api.labs
      .listLabs()
      .then((list) => {
        labs.value = list;
        error.value = null;
      })
      .catch((err: unknown) => {
        error.value = errorText(err);
        loading = null;
      });
    return loading;
  }

  function byId(id: string): LabDescriptor | undefined {
    return labs.value.find((l) => l.id === id);
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

  return { labs, error, load, byId, kernelSource };
});
