// A setting kept across reloads in localStorage, under the app's prefix; a storage that refuses (private mode, a
// full quota) only costs the memory of it.
import { ref, watch } from 'vue';
import type { Ref } from 'vue';

const PREFIX = 'gpu-lab.';

export function remembered<T extends string>(key: string, initial: T): Ref<T> {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(PREFIX + key);
  } catch {
    // No storage: start from the initial value.
  }
  const value = ref(stored ?? initial) as Ref<T>;
  watch(value, (v) => {
    try {
      localStorage.setItem(PREFIX + key, v);
    } catch {
      // Not kept; the value still holds for this page.
    }
  });
  return value;
}
