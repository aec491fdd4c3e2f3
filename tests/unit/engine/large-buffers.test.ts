// A legal but large point (issue: `vector-function elements=500000000` was killed by the 20 s heartbeat, its
// random fill holding the compute host's JS thread): the host fills and poisons its buffers off that thread, so it
// answers heartbeats all along. Here the heartbeat is made strict (1.5 s), and the point's three 1.2 GB vectors take
// longer than that to write on any machine this runs on, so a host that blocked while writing would be killed.
import { describe, expect, it } from 'vitest';

import { ComputeHostSupervisor } from '../../../main/engine/supervisor.ts';

describe('a point with gigabytes of buffers', () => {
  it('is measured and verified by a host that keeps answering its heartbeats', async () => {
    const logs: string[] = [];
    const supervisor = new ComputeHostSupervisor({ heartbeatMs: 50, heartbeatTimeoutMs: 1500, log: (l) => logs.push(l) });
    try {
      const r = await supervisor.measure({ op: 'vector-function', variant: 'threads', elements: 150_000_000, a: 3.5, b: 2.8, c: 10, device: 'cpu', warmup: 0, repeats: 1, budgetSeconds: 0.05, seed: 7 });
      expect(r.verification?.passed, JSON.stringify(r.verification)).toBe(true);
      expect(r.hostMs.length).toBeGreaterThanOrEqual(1);
      expect(logs.filter((l) => /heartbeat|died|killing/.test(l))).toEqual([]);
    } finally {
      await supervisor.stop();
    }
  }, 120_000);
});
