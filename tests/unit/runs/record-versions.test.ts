// A stored record of any schema version this GPU Lab reads opens in this version's words, and one newer than it is
// refused with both versions named: the recorded runs (version 1, `timer` device/host) read with the clock each point
// was measured on; a record from a later GPU Lab says which versions this one reads, in the run store, the report and
// an import alike.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { OLDEST_RUN_SCHEMA_VERSION, readRunRecord } from '../../../main/common/run-record-read.ts';
import { RUN_SCHEMA_VERSION } from '../../../main/common/run-record.ts';
import { countedSamples } from '../../../main/common/pure/statistics.ts';
import { checkRecord } from '../../../main/reports/report-input.ts';
import { STORED_RECORD, readStoredRecord } from '../../../main/runs/stored-record.ts';

const json = (folder: string, name: string): Record<string, unknown> => JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures', folder, `${name}.json`), 'utf8')) as Record<string, unknown>;

describe('a version 1 record, read', () => {
  it('names each point’s clock in the measurement’s words: events for CUDA events, the host’s clock stopped at the launch where events were read beside it', () => {
    const stored = json('runs', 'h100-timing-pitfalls');
    expect(stored.schemaVersion).toBe(1);
    const read = STORED_RECORD.parse(stored);
    expect(read.schemaVersion).toBe(RUN_SCHEMA_VERSION);
    const clock = (key: string): string | undefined => read.points.find((p) => p.key === key)?.clock;
    expect([clock('gpu-events'), clock('gpu-no-sync'), clock('gpu-warm'), clock('cpu-cold')]).toEqual(['events', 'host-nosync', 'host', 'host']);
  });

  it('a Python peer’s clock stopped at the launch, which version 1 kept no device times for, takes the plan’s clock', () => {
    const read = STORED_RECORD.parse(json('peer-runs', 'h100-timing-pitfalls-peers'));
    expect(read.points.find((p) => p.key === 'torch-no-sync')?.clock).toBe('host-nosync');
    expect(read.points.find((p) => p.key === 'torch-events')?.clock).toBe('events');
  });

  it('keeps every median as recorded, computed from the samples that count on the point’s clock, with its interval', () => {
    for (const name of ['h100-matmul', 'h100-vector-function', 'cpu-matmul']) {
      const stored = json('runs', name) as { points: { key: string; stats: { median: number } | null }[] };
      const read = STORED_RECORD.parse(stored);
      for (const p of read.points) {
        if (!p.stats) continue;
        expect(p.stats.median, `${name} ${p.key}`).toBe(stored.points.find((s) => s.key === p.key)?.stats?.median);
        expect(countedSamples(p)).toHaveLength(p.stats.count);
        if (p.stats.count >= 6) expect(p.stats.ciLow, `${name} ${p.key}`).not.toBeNull();
      }
    }
  });

  it('maps any version 1 point: device → events, host with device times → host-nosync, host without → host', () => {
    const base = json('runs', 'cpu-matmul') as { points: Record<string, unknown>[] };
    const template = base.points[0] ?? {};
    fc.assert(
      fc.property(fc.constantFrom('device', 'host'), fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.boolean(), (timer, hostMs, withDevice) => {
        const deviceMs = withDevice || timer === 'device' ? hostMs.map((v) => v / 2) : null;
        const point = { ...template, timer, hostMs, deviceMs, stats: null, status: 'failed', error: null, reason: 'x' };
        const read = readRunRecord({ ...base, points: [point] });
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        expect(read.record.points[0]?.clock).toBe(timer === 'device' ? 'events' : deviceMs ? 'host-nosync' : 'host');
      }),
      { numRuns: 60 },
    );
  });
});

describe('a record newer than this GPU Lab', () => {
  const newer = { ...json('runs', 'cpu-matmul'), schemaVersion: RUN_SCHEMA_VERSION + 1 };
  const said = new RegExp(`schema version ${RUN_SCHEMA_VERSION + 1}.*reads versions ${OLDEST_RUN_SCHEMA_VERSION} to ${RUN_SCHEMA_VERSION}`);

  it('is refused by the reader, naming its version and the ones this GPU Lab reads', () => {
    const read = readStoredRecord(newer);
    expect(read).toMatchObject({ ok: false, reason: 'schema-version', storedVersion: RUN_SCHEMA_VERSION + 1 });
    expect(!read.ok && read.message).toMatch(said);
  });

  it('is refused by the report with the same words', () => {
    expect(() => checkRecord(newer)).toThrow(said);
  });

  it('and a record with no version at all is refused too, not read as this one', () => {
    const { schemaVersion: _, ...unversioned } = newer;
    expect(readStoredRecord(unversioned)).toMatchObject({ ok: false, reason: 'schema-version' });
  });
});
