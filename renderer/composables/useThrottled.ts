// A value that follows its source at most once per interval: the first change shows at once, later ones within the
// interval are gathered into one update at its end, so the newest value always shows. For views that need not
// redraw at the rate points stream in (a table of hundreds of rows), while the chart does.
import { onScopeDispose, shallowRef, watch } from 'vue';
import type { ShallowRef } from 'vue';

export function useThrottled<T>(source: () => T, intervalMs: number): ShallowRef<T> {
  const value = shallowRef(source());
  // The first change after a quiet spell shows at once, whatever the clock reads.
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const update = (): void => {
    timer = undefined;
    last = performance.now();
    value.value = source();
  };
  // Synchronously: an update that is due lands in the same render as the change that caused it.
  watch(
    source,
    () => {
      if (timer !== undefined) return;
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) update();
      else timer = setTimeout(update, wait);
    },
    { flush: 'sync' },
  );
  onScopeDispose(() => clearTimeout(timer));
  return value;
}
