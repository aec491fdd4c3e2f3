// Shared by the native tests: fresh seeds (printed with any failure so that it can be replayed) and error matching.
import { expect } from 'vitest';

export function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

export function relativeError(out: ArrayLike<number>, ref: ArrayLike<number>): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = (out[i] ?? Number.NaN) - (ref[i] ?? Number.NaN);
    num += d * d;
    den += (ref[i] ?? 0) ** 2;
  }
  return Math.sqrt(num / den);
}

// Expects `fn` to throw (or reject with) an error carrying `code` whose message mentions every one of `mentions`.
export async function expectCode(fn: () => unknown, code: string, mentions: string[] = []): Promise<void> {
  let caught: unknown;
  try {
    await fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected an error with code ${code}`).toBeInstanceOf(Error);
  const err = caught as Error & { code?: string };
  expect(err.code, err.message).toBe(code);
  for (const m of mentions) expect(err.message).toContain(m);
}
