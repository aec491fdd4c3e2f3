// Lab parameters: a zod schema built from each lab's descriptors, so that the limits shown to the user and the
// limits enforced are the same numbers. A rejection names the parameter, the value and the allowed range.
import { z } from 'zod';

import { GpuLabError } from './errors.ts';
import type { ParamValue, ParamValues, ParameterDescriptor } from './lab-descriptor.ts';

function allowed(p: ParameterDescriptor): string {
  const unit = p.unit ? ` ${p.unit}` : '';
  switch (p.kind) {
    case 'integer':
      return `an integer from ${p.min} to ${p.max}${unit}${p.atLeast ? `, and at least "${p.atLeast}"` : ''}`;
    case 'number':
      return `a number from ${p.min} to ${p.max}${unit}${p.atLeast ? `, and at least "${p.atLeast}"` : ''}`;
    case 'choice':
      return `one of ${p.choices.join(', ')}`;
    case 'integer-list':
      return `a list of 1 to ${p.maxItems} integers, each from ${p.min} to ${p.max}${unit}`;
    case 'choice-list':
      return `a list of 1 to ${p.choices.length} of ${p.choices.join(', ')}`;
  }
}

function fieldSchema(p: ParameterDescriptor): z.ZodType<ParamValues[string]> {
  switch (p.kind) {
    case 'integer':
      return z.int().min(p.min).max(p.max);
    case 'number':
      return z.number().min(p.min).max(p.max);
    case 'choice':
      return z.enum(p.choices as [string, ...string[]]);
    case 'integer-list':
      return z.array(z.int().min(p.min).max(p.max)).min(1).max(p.maxItems);
    case 'choice-list':
      return z
        .array(z.enum(p.choices as [string, ...string[]]))
        .min(1)
        .max(p.choices.length)
        .refine((list) => new Set(list).size === list.length, 'no repeated choices');
  }
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `[${value.slice(0, 8).map(describeValue).join(', ')}${value.length > 8 ? ', …' : ''}]`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return `a value of type ${typeof value}`;
}

function invalidParams(message: string, details: Record<string, unknown>): GpuLabError {
  return new GpuLabError('INVALID_PARAMS', message, details);
}

// Missing parameters take their defaults; unknown ones are refused (a typo must not silently run the default).
export function validateParams(labId: string, descriptors: readonly ParameterDescriptor[], raw: unknown): ParamValues {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidParams(`The parameters of lab "${labId}" must be an object of name → value, not ${describeValue(raw)}`, { lab: labId, reason: 'not-an-object' });
  }
  const input = raw as Record<string, unknown>;
  const known = new Set(descriptors.map((p) => p.name));
  for (const name of Object.keys(input)) {
    if (!known.has(name)) {
      throw invalidParams(`Lab "${labId}" has no parameter "${name}"; its parameters are ${[...known].join(', ')}`, {
        lab: labId,
        parameter: name,
        reason: 'unknown-parameter',
      });
    }
  }
  const values: ParamValues = {};
  for (const p of descriptors) {
    const value = Object.hasOwn(input, p.name) ? input[p.name] : p.default;
    const parsed = fieldSchema(p).safeParse(value);
    if (!parsed.success) {
      throw invalidParams(`Parameter "${p.name}" of lab "${labId}" = ${describeValue(value)} is not allowed: expected ${allowed(p)}`, {
        lab: labId,
        parameter: p.name,
        value: describeValue(value),
        allowed: allowed(p),
        // The descriptor says what is allowed: a reader in another language words it from there (and this reason).
        reason: 'not-allowed',
      });
    }
    values[p.name] = parsed.data;
  }
  for (const p of descriptors) checkAtLeast(labId, p, descriptors, values);
  return values;
}

// The rules between parameters, once each is valid on its own: "maxBytes" = 1024 under "minBytes" = 4096 would plan
// no point at all, and a run of nothing must not report "completed".
function checkAtLeast(labId: string, p: ParameterDescriptor, descriptors: readonly ParameterDescriptor[], values: ParamValues): void {
  if ((p.kind !== 'integer' && p.kind !== 'number') || !p.atLeast) return;
  const other = descriptors.find((d) => d.name === p.atLeast);
  const value = values[p.name];
  const floor = values[p.atLeast];
  if (!other || typeof value !== 'number' || typeof floor !== 'number') {
    throw new Error(`lab "${labId}": parameter "${p.name}" must be at least "${p.atLeast}", which is not a number parameter of the lab`);
  }
  if (value >= floor) return;
  const rule = `"${p.name}" (${p.label.toLowerCase()}) must be at least "${other.name}" (${other.label.toLowerCase()})`;
  throw invalidParams(`Parameters "${other.name}" = ${floor} and "${p.name}" = ${value} of lab "${labId}" are not allowed together: ${rule}`, {
    lab: labId,
    parameter: p.name,
    value: describeValue(value),
    other: other.name,
    otherValue: describeValue(floor),
    allowed: rule,
    reason: 'at-least',
  });
}

// Parses a parameter typed on a command line ("sizes=100,500", "n=7000") into the descriptor's type; the range is
// checked afterwards by validateParams.
export function parseParamText(p: ParameterDescriptor, text: string): ParamValue {
  // Decimal digits only, as the command line takes them (cli/run.ts names any other form): no underscores.
  const asNumber = (t: string): number => (t.trim() === '' || t.includes('_') ? Number.NaN : Number(t.trim()));
  switch (p.kind) {
    case 'integer':
    case 'number':
      return asNumber(text);
    case 'choice':
      return text.trim();
    case 'integer-list':
      return text.split(',').map(asNumber);
    case 'choice-list':
      return text.split(',').map((t) => t.trim());
  }
}
