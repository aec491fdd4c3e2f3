// The class's queue on its own: one run at a time in the order queued, whatever the device; each run told how many
// run before it and at most how long that takes (the limits of those ahead, what is left of the one running); no
// time where another program holds a device; a lab run past its limit reported once; each viewer sees what is theirs.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ClassQueue } from '../../../main/classroom/class-queue.ts';
import type { QueuedRun } from '../../../main/classroom/class-queue.ts';

const names = (owner: string): string | null => (owner === 'teacher' ? null : `name of ${owner}`);

function lab(owner: string, limitSeconds: number, device = 'cuda:0'): QueuedRun {
  return { kind: 'lab', device, what: 'vector-function', owner, limitSeconds };
}

afterEach(() => vi.useRealTimers());

describe('the class queue', () => {
  it('gives turns one at a time in the order queued, across devices', async () => {
    const queue = new ClassQueue();
    const order: string[] = [];
    const a = queue.add(lab('s-a', 60, 'cpu'), { ready: true });
    const b = queue.add(lab('s-b', 60, 'cuda:0'), { ready: true });
    const c = queue.add({ kind: 'kernel', device: 'cuda:1', what: 'saxpy', owner: 's-c', limitSeconds: 120 }, { ready: true });
    void a.turn.then(() => order.push('a'));
    void b.turn.then(() => order.push('b'));
    void c.turn.then(() => order.push('c'));
    await Promise.resolve();
    expect(order).toEqual(['a']);
    queue.finish(a.id);
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']);
    queue.finish(b.id);
    await Promise.resolve();
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('waits for a run that is not ready yet, keeping its place', async () => {
    const queue = new ClassQueue();
    const first = queue.add(lab('s-a', 60), { ready: false });
    const second = queue.add(lab('s-b', 60), { ready: true });
    let started = '';
    void first.turn.then(() => (started ||= 'first'));
    void second.turn.then(() => (started ||= 'second'));
    await Promise.resolve();
    expect(started).toBe('');
    queue.ready(first.id, 'run-1');
    await Promise.resolve();
    expect(started).toBe('first');
  });

  it('tells each run how many are ahead and at most how long they take: the sum of their limits', () => {
    let now = 0;
    const queue = new ClassQueue({ now: () => now });
    const runs = [lab('s-a', 100), lab('s-b', 40, 'cpu'), lab('s-c', 300), lab('s-d', 10)].map((r) => queue.add(r, { ready: true }));
    queue.started(runs[0]?.id ?? '');
    now = 30_000;
    const view = queue.view({ role: 'teacher' }, names);
    expect(view.entries.map((e) => [e.ahead, e.atMostSeconds])).toEqual([
      [0, 0],
      // 100 s of the running one, 30 s spent: 70 s left.
      [1, 70],
      [2, 110],
      [3, 410],
    ]);
    expect(view.devices).toEqual([
      { device: 'cpu', runs: 1 },
      { device: 'cuda:0', runs: 3 },
    ]);
  });

  it('gives no time while another program holds a device the running one waits for', () => {
    const queue = new ClassQueue();
    queue.add(lab('s-a', 100), { ready: true });
    queue.add(lab('s-b', 100), { ready: true });
    queue.waitsForOtherProgram('cuda:0', '2026-11-30T09:00:00Z');
    const view = queue.view({ role: 'student', owner: 's-b' }, names);
    expect(view.entries).toHaveLength(1);
    expect(view.entries[0]).toMatchObject({ ahead: 1, atMostSeconds: null, mine: true });
    expect(view.busyWithOtherProgram).toEqual([{ device: 'cuda:0', since: '2026-11-30T09:00:00Z' }]);
  });

  it('shows a student their own runs only, and the teacher every run with its student', () => {
    const queue = new ClassQueue();
    queue.add(lab('s-a', 10), { ready: true });
    queue.add(lab('s-b', 10), { ready: true });
    queue.add(lab('teacher', 10), { ready: true });
    const student = queue.view({ role: 'student', owner: 's-b' }, names);
    expect(student.entries.map((e) => e.student)).toEqual(['name of s-b']);
    expect(student.devices).toEqual([{ device: 'cuda:0', runs: 3 }]);
    const teacher = queue.view({ role: 'teacher' }, names);
    expect(teacher.entries.map((e) => e.student)).toEqual(['name of s-a', 'name of s-b', null]);
    expect(teacher.entries.every((e) => !e.mine)).toBe(true);
  });

  it('reports a lab run past its limit once, counted from when it started measuring', () => {
    vi.useFakeTimers();
    const past: string[] = [];
    const queue = new ClassQueue({ onPastLimit: (e) => past.push(e.runId ?? '') });
    const a = queue.add(lab('s-a', 20), { ready: false });
    queue.ready(a.id, 'run-a');
    vi.advanceTimersByTime(60_000);
    // Waiting for its device lock does not count.
    expect(past).toEqual([]);
    queue.started(a.id);
    vi.advanceTimersByTime(19_000);
    expect(past).toEqual([]);
    vi.advanceTimersByTime(2_000);
    expect(past).toEqual(['run-a']);
    queue.finish(a.id);
    vi.advanceTimersByTime(60_000);
    expect(past).toEqual(['run-a']);
  });

  it('counts each owner’s runs, and forgets a run once it has finished', () => {
    const queue = new ClassQueue();
    const a = queue.add(lab('s-a', 10), { ready: true });
    queue.add(lab('teacher', 10), { ready: true });
    queue.add(lab('teacher', 10), { ready: true });
    expect(queue.countOf('s-a')).toBe(1);
    expect(queue.countOf('teacher')).toBe(2);
    queue.finish(a.id);
    expect(queue.countOf('s-a')).toBe(0);
    expect(queue.has(a.id)).toBe(false);
  });
});
