// The rows of a long table drawn as it scrolls: only those in its scroll box and a few either side are in the page,
// every row one fixed height, the rest stood for by two spacers of the height they would take. Two thousand rows
// scroll as lightly as forty. The box's height and scroll position are read once a frame, never in a scroll handler's
// layout.
import { computed, onScopeDispose, ref, watch } from 'vue';
import type { ComputedRef, Ref } from 'vue';

export interface VirtualWindow<T> {
  // The index of the first item drawn, the items drawn, and the heights the spacers before and after stand for.
  first: number;
  items: T[];
  before: number;
  after: number;
}

export interface VirtualRowsOptions<T> {
  items: () => readonly T[];
  scroller: Ref<HTMLElement | null>;
  rowHeight: number;
  // Rows drawn beyond each edge of the box, so that a quick scroll does not show blank space for a frame.
  overscan?: number;
}

// The box's height before it is laid out (and in a test's DOM, which lays nothing out): a tall screen's worth.
const UNMEASURED_HEIGHT = 900;

export function useVirtualRows<T>(options: VirtualRowsOptions<T>): { window: ComputedRef<VirtualWindow<T>>; onScroll: () => void } {
  const overscan = options.overscan ?? 12;
  const scrollTop = ref(0);
  const height = ref(UNMEASURED_HEIGHT);
  let frame = 0;

  function measure(): void {
    frame = 0;
    const box = options.scroller.value;
    if (!box) return;
    scrollTop.value = box.scrollTop;
    height.value = box.clientHeight > 0 ? box.clientHeight : UNMEASURED_HEIGHT;
  }

  function onScroll(): void {
    if (frame === 0) frame = requestAnimationFrame(measure);
  }

  const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onScroll);
  watch(
    options.scroller,
    (box, was) => {
      if (was) resized?.unobserve(was);
      if (box) {
        resized?.observe(box);
        onScroll();
      }
    },
    { immediate: true },
  );
  onScopeDispose(() => {
    resized?.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
  });

  const window = computed<VirtualWindow<T>>(() => {
    const all = options.items();
    const h = options.rowHeight;
    const first = Math.min(all.length, Math.max(0, Math.floor(scrollTop.value / h) - overscan));
    const last = Math.min(all.length, Math.ceil((scrollTop.value + height.value) / h) + overscan);
    return { first, items: all.slice(first, last), before: first * h, after: (all.length - last) * h };
  });
  return { window, onScroll };
}
