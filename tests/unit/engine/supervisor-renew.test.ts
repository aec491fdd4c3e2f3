// supervisor.renew(), over scripted hosts: later requests go to a fresh host (started with the launcher's environment
// as it is then), while the renewed one answers what it was already asked — sent, or waiting for it to start — and
// is stopped once it has nothing left; an idle one is stopped at once; stop() ends both.
import { describe, expect, it } from 'vitest';

import { ComputeHostSupervisor } from '../../../main/engine/supervisor.ts';
import type { ComputeHostLauncher, ComputeHostProcess, HostExit } from '../../../main/engine/launcher.ts';

interface Scripted {
  pid: number;
  env: Record<string, string>;
  killed: boolean;
  sent: { type: string; id: number }[];
  ready(): void;
  answer(id: number, result: unknown): void;
}

// Hosts that answer pings, say ready when told (or at once), and answer a request when the test says.
function scriptedLauncher(options: { readyAtOnce?: boolean } = {}) {
  const hosts: Scripted[] = [];
  let generation = 0;
  const launcher: ComputeHostLauncher = {
    launch: (env) => {
      let onMessage: (m: unknown) => void = () => undefined;
      const exits: ((e: HostExit) => void)[] = [];
      const pid = 5000 + hosts.length;
      const host: Scripted = {
        pid,
        env: { ...env, GENERATION: String(generation) },
        killed: false,
        sent: [],
        ready: () => onMessage({ type: 'ready', pid }),
        answer: (id, result) => onMessage({ type: 'result', id, result }),
      };
      hosts.push(host);
      const proc: ComputeHostProcess = {
        pid,
        send: (m) => {
          const msg = m as { type: string; id: number };
          if (msg.type === 'ping') setImmediate(() => onMessage({ type: 'pong', id: 0 }));
          else host.sent.push(msg);
        },
        onMessage: (l) => {
          onMessage = l;
          if (options.readyAtOnce !== false) setImmediate(host.ready);
        },
        onExit: (l) => void exits.push(l),
        onOutput: () => undefined,
        kill: () => {
          if (host.killed) return;
          host.killed = true;
          setImmediate(() => exits.forEach((l) => l({ code: null, signal: 'SIGKILL' })));
        },
      };
      return proc;
    },
  };
  return { launcher, hosts, nextGeneration: () => generation++ };
}

const settle = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { heartbeatMs: 10, log: () => undefined };

describe('renewing the compute host', () => {
  it('does nothing without a host', () => {
    const { launcher, hosts } = scriptedLauncher();
    const supervisor = new ComputeHostSupervisor({ launcher, ...quiet });
    supervisor.renew();
    expect(hosts).toHaveLength(0);
  });

  it('stops an idle host at once; the next request starts a fresh one with the environment as it is then', async () => {
    const { launcher, hosts, nextGeneration } = scriptedLauncher();
    const supervisor = new ComputeHostSupervisor({ launcher, ...quiet });
    const first = supervisor.environment();
    await settle();
    hosts[0]?.answer(hosts[0].sent[0]?.id ?? -1, { devices: { devices: [], cudaReason: null, blas: null }, versions: {}, pid: 5000 });
    await first.catch(() => undefined);
    nextGeneration();
    supervisor.renew();
    expect(hosts[0]?.killed).toBe(true);
    const second = supervisor.peers(['numpy']);
    await settle();
    expect(hosts).toHaveLength(2);
    expect(hosts[1]?.env.GENERATION).toBe('1');
    expect(hosts[1]?.sent.map((m) => m.type)).toEqual(['peers']);
    hosts[1]?.answer(hosts[1].sent[0]?.id ?? -1, { interpreter: 'python3', available: false, reason: 'none' });
    expect(await second).toMatchObject({ interpreter: 'python3' });
    await supervisor.stop();
  });

  it('lets a renewed host answer what it was sent, sends later requests to a fresh one, then stops the old', async () => {
    const { launcher, hosts } = scriptedLauncher();
    const supervisor = new ComputeHostSupervisor({ launcher, ...quiet });
    const measuring = supervisor.peers(['numpy']);
    await settle();
    supervisor.renew();
    expect(hosts[0]?.killed).toBe(false);
    const later = supervisor.peers(['torch']);
    await settle();
    expect(hosts).toHaveLength(2);
    expect(hosts[1]?.sent.map((m) => m.type)).toEqual(['peers']);
    // Heartbeats go by: the old host still has a request, and lives on.
    await settle(50);
    expect(hosts[0]?.killed).toBe(false);
    hosts[0]?.answer(hosts[0].sent[0]?.id ?? -1, { interpreter: '/old/python', available: false, reason: 'old' });
    expect(await measuring).toMatchObject({ interpreter: '/old/python' });
    await settle(50);
    expect(hosts[0]?.killed).toBe(true);
    expect(hosts[1]?.killed).toBe(false);
    hosts[1]?.answer(hosts[1].sent[0]?.id ?? -1, { interpreter: '/new/python', available: false, reason: 'new' });
    expect(await later).toMatchObject({ interpreter: '/new/python' });
    await supervisor.stop();
    expect(hosts[1]?.killed).toBe(true);
  });

  it('does not stop a renewed host under a request waiting for it to start', async () => {
    const { launcher, hosts } = scriptedLauncher({ readyAtOnce: false });
    const supervisor = new ComputeHostSupervisor({ launcher, ...quiet });
    const waiting = supervisor.peers(['numpy']);
    await settle();
    supervisor.renew();
    await settle(50);
    expect(hosts[0]?.killed).toBe(false);
    hosts[0]?.ready();
    await settle();
    expect(hosts[0]?.sent.map((m) => m.type)).toEqual(['peers']);
    hosts[0]?.answer(hosts[0].sent[0]?.id ?? -1, { interpreter: 'python3', available: false, reason: 'x' });
    await waiting;
    await settle(50);
    expect(hosts[0]?.killed).toBe(true);
  });

  it('stops a renewed host still busy when the supervisor stops, failing its request as cancelled', async () => {
    const { launcher, hosts } = scriptedLauncher();
    const supervisor = new ComputeHostSupervisor({ launcher, ...quiet });
    const measuring = supervisor.peers(['numpy']);
    await settle();
    supervisor.renew();
    await supervisor.stop();
    expect(hosts[0]?.killed).toBe(true);
    await expect(measuring).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
