// A box that keeps the tallest height it has had while `key` stays the same (the lab shown): the findings of a run
// grow from a line ("provisional…") to a headline and a list when the run ends, and everything under them would jump
// down; with the place reserved (the previous run's findings, or the provisional ones laid out unseen) they fill it
// instead. A new key starts over. The height is read as the browser lays the box out (ResizeObserver), and never
// taken while the box is hidden (0).
import type { Ref, WatchSource } from 'vue';
import { onBeforeUnmount, ref, watch } from 'vue';

export interface ReservedHeightOptions {
  element: Readonly<Ref<HTMLElement | null>>;
  key: WatchSource<string>;
}

export function useReservedHeight(options: ReservedHeightOptions): Ref<number> {
  const reserved = ref(0);
  let observer: ResizeObserver | null = null;
  const stop = (): void => {
    observer?.disconnect();
    observer = null;
  };
  watch(options.key, () => {
    reserved.value = 0;
  });
  watch(
    options.element,
    (el) => {
      stop();
      if (!el || typeof ResizeObserver === 'undefined') return;
      observer = new ResizeObserver((entries) => {
        for (const entry of entries) {
          const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
          if (height > reserved.value) reserved.value = Math.ceil(height);
        }
      });
      observer.observe(el);
    },
    { immediate: true },
  );
  onBeforeUnmount(stop);
  return reserved;
}
