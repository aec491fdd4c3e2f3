// The most a lab's run takes, from its plan's time budgets: every run the H100 recorded (with its defaults, and with
// the course's Python beside it) took less than the bound its plan gives, on its device, with its parameters and the
// peers it ran; the peers a machine offers are counted; a device the machine lacks is refused, naming its devices.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { DeviceList } from '../../../main/common/devices.ts';
import { PEERS_REPORT, type PeersReport } from '../../../main/common/peer-protocol.ts';
import type { RunRecord } from '../../../main/common/run-record.ts';
import { findLab, LABS } from '../../../main/labs/index.ts';
import { defaultsTimeBounds, runTimeBound } from '../../../main/runs/time-bound.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const read = <T>(path: string): T => JSON.parse(readFileSync(join(fixtures, path), 'utf8')) as T;
const h100 = read<DeviceList & Record<string, unknown>>('devices-h100.json');
const env = { devices: { devices: h100.devices, cudaReason: h100.cudaReason, blas: h100.blas }, versions: {}, pid: 0 };
const probe: PeersReport = PEERS_REPORT.parse(read('peers/h100.json'));

const RECORDED = ['runs', 'peer-runs'].flatMap((folder) =>
  readdirSync(join(fixtures, folder))
    .filter((n) => n.startsWith('h100-') && n.endsWith('.json'))
    .map((n) => [n, read<RunRecord>(join(folder, n))] as const),
);

describe('the most a run takes', () => {
  it.each(RECORDED)('%s took less than its plan’s bound', (_name, record) => {
    const lab = findLab(record.lab);
    if (!lab || !record.finishedAt) throw new Error('a finished run of a known lab');
    const seconds = (Date.parse(record.finishedAt) - Date.parse(record.createdAt)) / 1000;
    // The peers the run asked for, as the machine offered them.
    const peers = record.peers?.length ? probe : null;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(runTimeBound(lab, env, record.device, peers, record.params));
  });

  it('counts the peers the machine offers, on the GPU and on the CPU', () => {
    const without = new Map(defaultsTimeBounds(LABS, env, 'cuda:0', null).map((b) => [b.lab, b.atMostSeconds]));
    const withPeers = new Map(defaultsTimeBounds(LABS, env, 'cuda:0', probe).map((b) => [b.lab, b.atMostSeconds]));
    for (const lab of LABS) {
      const id = lab.descriptor.id;
      expect(withPeers.get(id), id).toBeGreaterThan(without.get(id) ?? Infinity);
      // Text to image runs only through PyTorch: without the peers it has nothing to measure.
      if (id === 'text-to-image') expect(without.get(id), id).toBe(0);
      else expect(without.get(id), id).toBeGreaterThan(0);
    }
    // The CPU alone measures no transfer: nothing to wait for.
    expect(defaultsTimeBounds(LABS, env, 'cpu', null).find((b) => b.lab === 'transfer')?.atMostSeconds).toBe(0);
  });

  it('refuses a device this machine does not have, naming the ones it has', () => {
    expect(() => defaultsTimeBounds(LABS, env, 'cuda:3', null)).toThrow(/this machine's devices are cpu, cuda:0/);
  });
});
