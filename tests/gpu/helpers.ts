// Shared by the GPU tests (plain `node --test tests/gpu/`, no npm packages): whether a CUDA device is here, fresh
// seeds, twin buffers (a device buffer and a host buffer filled from one seed hold the same values), fp64
// references and error matching.
import assert from 'node:assert/strict';

import { createDeviceBuffer, createHostBuffer, cudaInventory } from '../../native/index.ts';
import type { DType, ElementBuffer, FillRange } from '../../native/index.ts';

const inventory = cudaInventory();
// The `skip` option of node:test: false where a device exists, else the reason, printed beside each skipped suite.
export const skipWithoutGpu: string | false = inventory.available ? false : `no CUDA device here (${inventory.reason ?? 'unknown'})`;
export const DEVICE = 'cuda:0' as const;

export function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

// Buffers made by a test, freed at its end.
export class Owned {
  private readonly buffers: ElementBuffer[] = [];
  add<B extends ElementBuffer>(b: B): B {
    this.buffers.push(b);
    return b;
  }
  free(): void {
    for (const b of this.buffers.splice(0)) b.free();
  }
}

export interface Twins {
  dev: ElementBuffer;
  host: ElementBuffer;
  seed: number;
}

export function twins(owned: Owned, dtype: DType, length: number, range?: FillRange): Twins {
  const seed = freshSeed();
  return {
    dev: owned.add(createDeviceBuffer(dtype, length, DEVICE)).fillRandom(seed, range),
    host: owned.add(createHostBuffer(dtype, length)).fillRandom(seed, range),
    seed,
  };
}

// C = A·B, row-major, in fp64.
export function gemmReference(a: Float64Array, b: Float64Array, m: number, n: number, k: number): Float64Array {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p] ?? 0;
      const row = p * n;
      for (let j = 0; j < n; j++) c[i * n + j] = (c[i * n + j] ?? 0) + aip * (b[row + j] ?? 0);
    }
  }
  return c;
}

// Expects `fn` to throw or reject with an error carrying `code` whose message mentions each of `mentions`.
export async function assertCode(fn: () => unknown, code: string, mentions: string[] = []): Promise<Error> {
  let caught: unknown;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof Error, `expected an error with code ${code}`);
  assert.equal((caught as Error & { code?: string }).code, code, caught.message);
  for (const m of mentions) assert.ok(caught.message.includes(m), `"${caught.message}" should mention "${m}"`);
  return caught;
}

// The relative error with the seed in the message, so that a failure can be replayed.
export function assertClose(relativeError: number, tolerance: number, what: string, seed?: number): void {
  assert.ok(relativeError <= tolerance, `${what}: relative error ${relativeError} over ${tolerance}${seed === undefined ? '' : ` (seed ${seed})`}`);
}
