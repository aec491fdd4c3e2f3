// The two runs of the compare view, fetched from the runs store by id (again when an id changes), with each one's
// load error, and the labs they belong to.
import type { ComputedRef, Ref, ShallowRef } from 'vue';
import { computed, ref, shallowRef, watch } from 'vue';

import type { LabDescriptor } from '../../../main/common/lab-descriptor.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { errorText } from '../../api/api-error.ts';
import { useLabsStore } from '../../stores/labs.ts';
import { useRunsStore } from '../../stores/runs.ts';

export interface ComparedRuns {
  first: ShallowRef<RunRecord | null>;
  second: ShallowRef<RunRecord | null>;
  errors: Ref<{ run: 'A' | 'B'; message: string }[]>;
  loading: Ref<boolean>;
  firstLab: ComputedRef<LabDescriptor | undefined>;
  secondLab: ComputedRef<LabDescriptor | undefined>;
  sameLab: ComputedRef<boolean>;
}

export function useComparedRuns(ids: () => [string, string]): ComparedRuns {
  const runs = useRunsStore();
  const labs = useLabsStore();
  const first = shallowRef<RunRecord | null>(null);
  const second = shallowRef<RunRecord | null>(null);
  const errors = ref<{ run: 'A' | 'B'; message: string }[]>([]);
  const loading = ref(false);
  let generation = 0;

  async function load([a, b]: [string, string]): Promise<void> {
    const mine = ++generation;
    loading.value = true;
    const [ra, rb] = await Promise.allSettled([runs.record(a), runs.record(b)]);
    // The ids changed while these were on their way: a newer load owns the view.
    if (mine !== generation) return;
    first.value = ra.status === 'fulfilled' ? ra.value : null;
    second.value = rb.status === 'fulfilled' ? rb.value : null;
    errors.value = [
      ...(ra.status === 'rejected' ? [{ run: 'A' as const, message: errorText(ra.reason) }] : []),
      ...(rb.status === 'rejected' ? [{ run: 'B' as const, message: errorText(rb.reason) }] : []),
    ];
    loading.value = false;
  }

  watch(ids, (next) => void load(next), { immediate: true });
  void labs.load();
  const firstLab = computed(() => (first.value ? labs.byId(first.value.lab) : undefined));
  const secondLab = computed(() => (second.value ? labs.byId(second.value.lab) : undefined));
  const sameLab = computed(() => first.value !== null && second.value !== null && first.value.lab === second.value.lab);
  return { first, second, errors, loading, firstLab, secondLab, sameLab };
}
