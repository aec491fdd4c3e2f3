// Who this page is on its server: alone with the machine (the desktop app, serve mode without a class), the teacher
// of a class, one of its students, or a browser with the class link that has not joined yet; and the class's queue
// as this page may see it, kept current by the server's events (a run taken out of it is gone with the next one).
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';

import type { ClassSession, QueueView } from '../../main/common/contract/classroom.ts';
import { api, transport } from '../api/index.ts';

const SOLO: ClassSession = { role: 'solo', className: null, name: null, caps: null };

export const useSessionStore = defineStore('session', () => {
  const session = shallowRef<ClassSession | null>(null);
  const queue = shallowRef<QueueView>({ entries: [], devices: [], busyWithOtherProgram: [] });
  const role = computed(() => session.value?.role ?? null);
  const inClass = computed(() => role.value === 'teacher' || role.value === 'student');
  const loaded = ref(false);

  async function load(): Promise<void> {
    try {
      session.value = await api.classroom.session();
    } catch {
      // A server that cannot say (or an older one): the page is its own, as before classes.
      session.value = SOLO;
    }
    loaded.value = true;
    if (inClass.value) queue.value = await api.classroom.queue().catch(() => queue.value);
  }

  api.classroom.onDidChangeQueue((view) => (queue.value = view));
  // A reconnect may follow a restart of the server: who this page is and the queue are read again.
  transport.onState((state) => {
    if (state === 'open' && loaded.value) void load();
  });

  const leaveQueue = (entryId: string): Promise<void> => api.classroom.leaveQueue(entryId);

  return { session, queue, role, inClass, loaded, load, leaveQueue };
});
