// The class as its teacher sees it (classroom.classOverview): read when the teacher's view opens, and again when a
// run ends or the queue changes, at most once a second (a class's runs end one after another, and the table is read
// whole each time), and whenever the teacher asks.
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

import type { ClassOverview } from '../../main/common/contract/classroom.ts';
import { api, errorText } from '../api/index.ts';

const INTERVAL_MS = 1000;

export const useClassStore = defineStore('class', () => {
  const overview = shallowRef<ClassOverview | null>(null);
  const error = ref<string | null>(null);
  const reading = ref(false);
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = Number.NEGATIVE_INFINITY;

  // One read at a time; a change during a read is read once more after it.
  async function load(): Promise<void> {
    if (reading.value) {
      again = true;
      return;
    }
    reading.value = true;
    try {
      do {
        again = false;
        last = performance.now();
        overview.value = await api.classroom.classOverview();
        error.value = null;
      } while (again);
    } catch (err) {
      error.value = errorText(err);
    } finally {
      reading.value = false;
    }
  }

  // Something changed: read now if the last read is a second old, else at the end of that second.
  function changed(): void {
    if (timer !== undefined) return;
    const wait = last + INTERVAL_MS - performance.now();
    const read = (): void => {
      timer = undefined;
      void load();
    };
    if (wait <= 0) read();
    else timer = setTimeout(read, wait);
  }

  function stop(): void {
    clearTimeout(timer);
    timer = undefined;
  }

  return { overview, error, reading, load, changed, stop };
});
