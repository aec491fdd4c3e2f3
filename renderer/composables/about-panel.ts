// Whether "About this lab" is open on a lab's page. It opens by itself on the lab's first visit only (the labs already
// visited are remembered on this computer); after that it is as the reader left it for as long as the page lives,
// including when the view is built anew for another language.
import { computed, reactive, watch } from 'vue';
import type { Ref, WritableComputedRef } from 'vue';

import { remembered } from './remembered.ts';

let seen: Ref<string> | null = null;
const open = reactive(new Map<string, boolean>());

export function useAboutPanel(labId: () => string): WritableComputedRef<boolean> {
  seen ??= remembered<string>('about.seen', '');
  const visited = seen;
  watch(
    labId,
    (id) => {
      if (open.has(id)) return;
      const ids = visited.value.split(',').filter(Boolean);
      open.set(id, !ids.includes(id));
      if (!ids.includes(id)) visited.value = [...ids, id].join(',');
    },
    { immediate: true },
  );
  return computed({
    get: () => open.get(labId()) ?? false,
    set: (value) => void open.set(labId(), value),
  });
}
