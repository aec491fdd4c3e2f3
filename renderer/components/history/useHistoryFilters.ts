// The history's filters live in the route's query (?lab=matmul&device=cuda:0): a reload, the back button or a link
// sent to a classmate shows the same runs. An empty choice leaves its key out of the query.
import { computed } from 'vue';
import type { Ref, WritableComputedRef } from 'vue';
import { useRoute, useRouter } from 'vue-router';
import type { LocationQueryValue } from 'vue-router';

import type { RunSummary } from '../../../main/common/run-record.ts';
import { useLabsStore } from '../../stores/labs.ts';

export interface FilterOption {
  value: string;
  text: string;
}

type FilterKey = 'lab' | 'device';

function queryText(value: LocationQueryValue | LocationQueryValue[] | undefined): string {
  const first = Array.isArray(value) ? value[0] : value;
  return first ?? '';
}

// Every value the runs have, plus the one chosen (a shared link may name a lab this computer has no run of yet).
function optionsOf(runs: RunSummary[], chosen: string, pick: (r: RunSummary) => FilterOption): FilterOption[] {
  const byValue = new Map<string, FilterOption>();
  for (const run of runs) {
    const option = pick(run);
    if (!byValue.has(option.value)) byValue.set(option.value, option);
  }
  if (chosen !== '' && !byValue.has(chosen)) byValue.set(chosen, { value: chosen, text: chosen });
  return [...byValue.values()].sort((a, b) => a.text.localeCompare(b.text));
}

export function useHistoryFilters(options: { runs: Ref<RunSummary[]>; deviceText: (id: string) => string }) {
  const route = useRoute();
  const router = useRouter();
  const labs = useLabsStore();

  // One replace for all the keys changed: two replaces in a row would each start from the query before either.
  function setQuery(patch: Partial<Record<FilterKey, string>>): void {
    const query = { ...route.query };
    for (const [key, value] of Object.entries(patch)) {
      if (value) query[key] = value;
      else delete query[key];
    }
    // Replaced, not pushed: the back button leaves the history instead of stepping through every choice made.
    void router.replace({ query });
  }

  const filter = (key: FilterKey): WritableComputedRef<string> =>
    computed({ get: () => queryText(route.query[key]), set: (value) => setQuery({ [key]: value }) });

  const lab = filter('lab');
  const device = filter('device');
  const labOptions = computed(() => optionsOf(options.runs.value, lab.value, (r) => ({ value: r.lab, text: labs.titleOf(r) })));
  const deviceOptions = computed(() =>
    optionsOf(options.runs.value, device.value, (r) => ({ value: r.device, text: options.deviceText(r.device) })),
  );
  const shown = computed(() =>
    options.runs.value.filter((r) => (lab.value === '' || r.lab === lab.value) && (device.value === '' || r.device === device.value)),
  );

  function clear(): void {
    setQuery({ lab: '', device: '' });
  }

  return { lab, device, labOptions, deviceOptions, shown, clear };
}
