// The supervisor against a real host: a segfault, a bad measurement that must not hurt the host; against scripted
// hosts: cancels that arrive before the measurement is sent, and a host that stops answering heartbeats.
import { afterAll, describe, expect, it } from 'vitest';

import { ComputeHostSupervisor } from '../../../main/engine/supervisor.ts';
import type { ComputeHostLauncher } from '../../../main/engine/launcher.ts';

// A host that says ready after `readyAfterMs`, records what it is sent, and answers every measurement with an error
// that says it was measured.
function scriptedHost(readyAfterMs: number): { launcher: ComputeHostLauncher; sent: unknown[] } {
  const sent: unknown[] = [];
  const launcher: ComputeHostLauncher = {
    launch: () => {
      let onMessage: (m: unknown) => void = () => undefined;
      setTimeout(() => onMessage({ type: 'ready', pid: 4343 }), readyAfterMs);
      return {
        pid: 4343,
        send: (m) => {
          sent.push(m);
          const msg = m as { type: string; id: number };
          if (msg.type === 'measure') setTimeout(() => onMessage({ type: 'error', id: msg.id, error: { code: 'NATIVE_ERROR', message: 'measured anyway' } }), 5);
        },
        onMessage: (l) => (onMessage = l),
        onExit: () => undefined,
        onOutput: () => undefined,
        kill: () => undefined,
      };
    },
  };
  return { launcher, sent };
}

const measures = (sent: unknown[]): unknown[] => sent.filter((m) => (m as { type: string }).type === 'measure');

const logs: string[] = [];
const supervisor = new ComputeHostSupervisor({ testHooks: true, log: (l) => logs.push(l) });
afterAll(() => supervisor.stop());

const tiny = { op: 'add', variant: 'single', elements: 100, device: 'cpu', warmup: 1, repeats: 3, seed: 1 } as const;
// A measurement that lasts: a cold one takes its samples in one go, 5000 of them, where a warm one would stop once its
// median is steady.
const slow = { ...tiny, elements: 2_000_000, repeats: 5000, cold: true } as const;

describe('compute host supervisor', () => {
  it('gives a host that takes longer to start than the heartbeats allow the start’s own time, then measures on it', async () => {
    // Ready after 600 ms, with heartbeats due every 300 ms: a host loading its modules on a busy machine.
    const { launcher, sent } = scriptedHost(600);
    const heard: string[] = [];
    const late = new ComputeHostSupervisor({ launcher, heartbeatMs: 20, heartbeatTimeoutMs: 300, log: (l) => heard.push(l) });
    await expect(late.measure(tiny)).rejects.toMatchObject({ code: 'NATIVE_ERROR', message: 'measured anyway' });
    expect(measures(sent)).toHaveLength(1);
    // Not killed while it started (this scripted host answers no heartbeat, so it is killed 300 ms after it is ready).
    const beforeReady = heard.slice(0, heard.findIndex((l) => l.endsWith('] ready')));
    expect(heard.some((l) => l.endsWith('] ready'))).toBe(true);
    expect(beforeReady.filter((l) => l.includes('killing'))).toEqual([]);
  });

  it('measures and verifies', async () => {
    const r = await supervisor.measure(tiny);
    // The engine decides how many samples: at least the six a median's interval needs, whatever the plan's repeats.
    expect(r.hostMs.length).toBeGreaterThanOrEqual(6);
    expect(r.hostMs).toHaveLength(r.sampling?.samples ?? 0);
    expect(r.verification?.passed).toBe(true);
  });

  it('reports a segfault with its signal and starts a fresh host', async () => {
    const first = supervisor.pid;
    const measuring = supervisor.measure(slow);
    await new Promise((r) => setTimeout(r, 200));
    await supervisor.crashForTest('segfault');
    await expect(measuring).rejects.toMatchObject({ code: 'COMPUTE_HOST_CRASHED', details: { signal: 'SIGSEGV' } });
    expect((await supervisor.measure(tiny)).verification?.passed).toBe(true);
    expect(supervisor.pid).not.toBe(first);
  });

  it('sends the request made right after a timeout kill to a fresh host, not to the dying one', async () => {
    await supervisor.measure(tiny);
    const killed = supervisor.pid;
    await expect(supervisor.measure(slow, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    // No await between the rejection and this request: the killed host's exit has not arrived yet.
    expect((await supervisor.measure(tiny)).verification?.passed).toBe(true);
    expect(supervisor.pid).not.toBe(killed);
    expect(logs.some((l) => l.includes(`pid ${killed}] died (signal SIGKILL; killed because it ran past a request's`))).toBe(true);
  });

  it('rejects a malformed measurement in the host, naming the field, and the host lives on', async () => {
    const pid = supervisor.pid;
    await expect(supervisor.measure({ ...tiny, elements: -3 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`elements`') });
    await expect(supervisor.measure({ ...tiny, variant: 'kernel', device: 'cuda:0' })).rejects.toMatchObject({ code: 'CUDA_UNAVAILABLE' });
    expect((await supervisor.measure(tiny)).hostMs.length).toBeGreaterThanOrEqual(6);
    expect(supervisor.pid).toBe(pid);
  });

  it('answers a cancel while the host is starting at once, and never sends the measurement', async () => {
    const { launcher, sent } = scriptedHost(300);
    const starting = new ComputeHostSupervisor({ launcher, log: (l) => logs.push(l) });
    const controller = new AbortController();
    const asked = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(starting.measure(tiny, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - asked).toBeLessThan(250);
    await new Promise((r) => setTimeout(r, 400));
    expect(measures(sent)).toEqual([]);
  });

  it('does not send a measurement cancelled between the host being ready and the send', async () => {
    const { launcher, sent } = scriptedHost(0);
    const ready = new ComputeHostSupervisor({ launcher, log: (l) => logs.push(l) });
    await expect(ready.measure(tiny)).rejects.toMatchObject({ message: 'measured anyway' });
    const controller = new AbortController();
    const cancelled = ready.measure(tiny, { signal: controller.signal });
    // The request is waiting on the (already started) host: the abort lands before the send.
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(measures(sent)).toHaveLength(1);
  });

  it('kills a host that stops answering heartbeats and fails its request', async () => {
    // A host that starts, then never answers anything: its JS thread is as good as hung.
    let killed = false;
    const exits: ((e: { code: null; signal: string }) => void)[] = [];
    const silent: ComputeHostLauncher = {
      launch: () => {
        let onMessage: (m: unknown) => void = () => undefined;
        setTimeout(() => onMessage({ type: 'ready', pid: 4242 }), 10);
        return {
          pid: 4242,
          send: () => undefined,
          onMessage: (l) => (onMessage = l),
          onExit: (l) => exits.push(l),
          onOutput: () => undefined,
          kill: () => {
            killed = true;
            for (const l of exits) l({ code: null, signal: 'SIGKILL' });
          },
        };
      },
    };
    const hung = new ComputeHostSupervisor({ launcher: silent, heartbeatMs: 20, heartbeatTimeoutMs: 100, log: (l) => logs.push(l) });
    await expect(hung.measure(tiny)).rejects.toMatchObject({ code: 'COMPUTE_HOST_CRASHED', details: { killReason: expect.stringContaining('heartbeats') } });
    expect(killed).toBe(true);
  });
});
