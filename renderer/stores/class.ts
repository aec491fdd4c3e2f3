// The class as its teacher sees it (classroom.classOverview): read when the teacher's view opens, and again when a
// run ends or the queue changes, at most once a second (a class's runs end one after another, and the table is read
// whole each time), and whenever the teacher asks; and what the teacher does to the class: a student removed (the
// table read again without them), the caps set, a run beside the class's numbers, the class taken away as CSV or PDF.
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

import type { ClassCaps, ClassDistribution, ClassOverview, ClassReportRequest } from '../../main/common/contract/classroom.ts';
import { api, errorText } from '../api/index.ts';
import { downloadBase64, downloadText } from '../composables/download.ts';

const INTERVAL_MS = 1000;

export const useClassStore = defineStore('class', () => {
  const overview = shallowRef<ClassOverview | null>(null);
  const error = ref<string | null>(null);
  const reading = ref(false);
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = Number.NEGATIVE_INFINITY;
  // Caps saved while a read was on its way: that read may bring the caps from before the save, which must not undo it.
  let saves = 0;
  let savedCaps: ClassCaps | null = null;

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
        const before = saves;
        const read = await api.classroom.classOverview();
        overview.value = saves !== before && savedCaps ? { ...read, caps: savedCaps } : read;
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

  // Their token stops working at once; their runs stay the teacher's.
  async function removeStudent(studentId: string): Promise<void> {
    await api.classroom.removeStudent(studentId);
    await load();
  }

  // The caps as the server took them, in the table at once.
  async function setCaps(caps: ClassCaps): Promise<ClassCaps> {
    const saved = await api.classroom.setCaps(caps);
    saves++;
    savedCaps = saved;
    if (overview.value) overview.value = { ...overview.value, caps: saved };
    return saved;
  }

  const distribution = (runId: string): Promise<ClassDistribution> => api.classroom.classDistribution(runId);

  async function downloadCsv(): Promise<void> {
    const file = await api.classroom.classCsv();
    downloadText(file.filename, file.mimeType, file.text);
  }

  async function downloadReport(request: ClassReportRequest): Promise<void> {
    const file = await api.classroom.writeClassReport(request);
    downloadBase64(file.filename, file.mimeType, file.base64);
  }

  return { overview, error, reading, load, changed, stop, removeStudent, setCaps, distribution, downloadCsv, downloadReport };
});
