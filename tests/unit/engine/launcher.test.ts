// The forked compute host when it fails underneath the supervisor: a write to a host that has just died and a spawn
// that fails. Node reports both as an 'error' event, which kills main when nobody listens; they must end as a
// crash of the host instead, with the next request on a fresh one.
import { afterAll, describe, expect, it } from 'vitest';

import { createForkLauncher } from '../../../main/engine/launcher.ts';
import { ComputeHostSupervisor } from '../../../main/engine/supervisor.ts';

const tiny = { op: 'add', variant: 'single', elements: 100, device: 'cpu', warmup: 1, repeats: 3, seed: 1 } as const;
const logs: string[] = [];
const supervisor = new ComputeHostSupervisor({ log: (l) => logs.push(l) });
afterAll(() => supervisor.stop());

// Blocks this thread: the dead host's end of the channel is closed, but main has not yet read that it is.
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('forked compute host', () => {
  it('fails a request written to a host that died a moment ago (EPIPE), and the next request works', async () => {
    await supervisor.measure(tiny);
    const dead = supervisor.pid ?? -1;
    process.kill(dead, 'SIGKILL');
    blockFor(200);
    await expect(supervisor.measure(tiny)).rejects.toMatchObject({
      code: 'COMPUTE_HOST_CRASHED',
      details: { pid: dead, signal: 'SIGKILL', error: expect.stringContaining('EPIPE') },
    });
    expect(logs.some((l) => l.includes(`pid ${dead}] died (signal SIGKILL; write EPIPE)`))).toBe(true);
    expect((await supervisor.measure(tiny)).verification?.passed).toBe(true);
    expect(supervisor.pid).not.toBe(dead);
  });

  it('fails a request whose host cannot be spawned at once, naming the spawn error', async () => {
    const unstartable = new ComputeHostSupervisor({
      launcher: createForkLauncher({ execPath: '/nonexistent/node' }),
      heartbeatMs: 1,
      startTimeoutMs: 30_000,
      log: (l) => logs.push(l),
    });
    const started = Date.now();
    await expect(unstartable.measure(tiny)).rejects.toMatchObject({
      code: 'COMPUTE_HOST_CRASHED',
      message: 'The compute host could not be started: spawn /nonexistent/node ENOENT',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await unstartable.stop();
  });
});
