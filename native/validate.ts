// Argument checks for the facade. Each names the argument, the value and what was expected, so that C++ can trust
// what it is given: "Expected a positive integer for `length` but received -3 of type number".
import { GpuLabError } from '../main/common/errors.ts';
import type { ErrorCode } from '../main/common/errors.ts';

// The largest C++ int: what BLAS and cuBLAS take a dimension or a count in, and every kernel indexes with. The
// facade checks it for memory's sake; how much a lab may measure is the measurement's (main/common/measurement.ts
// LIMITS), checked by the compute host.
export const INT_MAX = 2147483647;

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}" of type string`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${String(value)} of type ${typeof value}`;
  }
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `a value of type ${typeof value}`;
}

export function invalid(name: string, expected: string, value: unknown, code: ErrorCode = 'INVALID_ARGUMENT'): GpuLabError {
  return new GpuLabError(code, `Expected ${expected} for \`${name}\` but received ${describe(value)}`, {
    argument: name,
    expected,
  });
}

// An integer in [min, max]. `what` describes it ("a positive integer").
export function integerIn(name: string, value: unknown, min: number, max: number, what?: string): number {
  const expected = what ?? `an integer from ${min} to ${max}`;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(name, expected, value, typeof value === 'number' && Number.isInteger(value) && value > max ? 'SIZE_UNSUPPORTED' : 'INVALID_ARGUMENT');
  }
  return value;
}

export function positiveInteger(name: string, value: unknown, max = Number.MAX_SAFE_INTEGER): number {
  return integerIn(name, value, 1, max, max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `a positive integer up to ${max}`);
}

export function finiteNumber(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(name, 'a finite number', value);
  return value;
}

export function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], code: ErrorCode = 'INVALID_ARGUMENT'): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(name, `one of ${allowed.join(', ')}`, value, code);
  }
  return value as T;
}
