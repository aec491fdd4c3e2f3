// The class's table in the teacher's store, read while the teacher saves the caps: a read that left before the save
// and comes back after it brings the caps from before, and must not put them back over the saved ones (the form would
// then show the old numbers under "saved", and the next save would send them).
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { ClassCaps, ClassOverview } from '../../../../main/common/contract/classroom.ts';
import type { fakeMain } from './fake-main.ts';

const main = vi.hoisted(() => ({ current: null as ReturnType<typeof fakeMain> | null }));
vi.mock('../../../../renderer/api/index.ts', async () => {
  const { fakeMain: make } = await import('./fake-main.ts');
  main.current = make();
  return main.current.module();
});

const { useClassStore } = await import('../../../../renderer/stores/class.ts');

function fake(): ReturnType<typeof fakeMain> {
  if (!main.current) throw new Error('the api module was not mocked');
  return main.current;
}

const OLD: ClassCaps = { maxPoints: 500, maxBytes: 2 ** 30, maxSeconds: 600 };
const NEW: ClassCaps = { maxPoints: 200, maxBytes: 2 ** 28, maxSeconds: 120 };
const overviewWith = (caps: ClassCaps): ClassOverview => ({ className: 'HPC 2026', caps, students: [], labs: [] });

// Answers to classOverview that the test lets go one at a time, each with the server's caps when it was asked.
function pendingReads(capsNow: () => ClassCaps): { release: () => void; waiting: () => number } {
  const queue: (() => void)[] = [];
  fake().answer('classroom.classOverview', () => {
    const caps = capsNow();
    return new Promise((resolve) => queue.push(() => resolve(overviewWith(caps))));
  });
  return { release: () => queue.shift()?.(), waiting: () => queue.length };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('the class store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('keeps the caps just saved when a read that left before the save comes back after it', async () => {
    let server = OLD;
    const reads = pendingReads(() => server);
    fake().answer('classroom.setCaps', ([caps]) => {
      server = caps as ClassCaps;
      return server;
    });
    const store = useClassStore();
    const first = store.load();
    await settle();
    reads.release();
    await first;
    expect(store.overview?.caps).toEqual(OLD);
    // A read leaves with the old caps; the save lands; then the read comes back.
    const stale = store.load();
    await settle();
    expect(reads.waiting()).toBe(1);
    expect(await store.setCaps(NEW)).toEqual(NEW);
    expect(store.overview?.caps).toEqual(NEW);
    reads.release();
    await stale;
    expect(store.overview?.caps).toEqual(NEW);
    // A read asked after the save brings the server's caps, which are the saved ones.
    const later = store.load();
    await settle();
    reads.release();
    await later;
    expect(store.overview?.caps).toEqual(NEW);
  });
});
