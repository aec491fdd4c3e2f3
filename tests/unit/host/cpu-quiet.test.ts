// The CPU handed over between the engine and a Python peer: a measurement waits out the other side's spinning
// threads, and only the other side's.
import { describe, expect, it } from 'vitest';

import { cpuWorkDone, quietWaitMs } from '../../../main/host/cpu-quiet.ts';

describe('the CPU quiet between the engine and a peer', () => {
  it('waits for the rest of 150 ms after the other side, not after its own work, and not once it is past', () => {
    cpuWorkDone('peer', 1000);
    expect(quietWaitMs('engine', 1000)).toBe(150);
    expect(quietWaitMs('engine', 1100)).toBe(50);
    expect(quietWaitMs('engine', 1200)).toBe(0);
    expect(quietWaitMs('peer', 1001)).toBe(0);
    cpuWorkDone('engine', 2000);
    expect(quietWaitMs('peer', 2010)).toBe(140);
    expect(quietWaitMs('engine', 2010)).toBe(0);
  });
});
