// True from the moment an element first comes near the viewport (within `rootMargin`), and from then on: the catalog
// draws a lab's thumbnail, and fetches its run, only once its card is about to be seen. Where the browser has no
// IntersectionObserver the element counts as seen at once.
import type { Ref } from 'vue';
import { onBeforeUnmount, ref, watch } from 'vue';

export function useFirstVisible(options: { target: Readonly<Ref<Element | null>>; rootMargin?: string }): Readonly<Ref<boolean>> {
  const seen = ref(false);
  let observer: IntersectionObserver | null = null;

  function stop(): void {
    observer?.disconnect();
    observer = null;
  }

  watch(
    options.target,
    (element) => {
      stop();
      if (!element || seen.value) return;
      if (typeof IntersectionObserver === 'undefined') {
        seen.value = true;
        return;
      }
      observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((e) => e.isIntersecting)) return;
          seen.value = true;
          stop();
        },
        { rootMargin: options.rootMargin ?? '0px' },
      );
      observer.observe(element);
    },
    { immediate: true, flush: 'post' },
  );
  onBeforeUnmount(stop);
  return seen;
}
