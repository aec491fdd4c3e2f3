// Numbers on the command line, for every option and --param alike: decimal digits, as most readers read them. 0x50,
// 0o100, 0b101 or 1_000 would each be read as something else than what many see, 1e3 or 2.5 is no integer, and " 80"
// is a quoting accident; each is refused naming the form that was typed, not read.
import { UsageError } from './command.ts';

export type NumberForm = 'hex' | 'octal' | 'binary' | 'underscore' | 'notInteger' | 'spaces';

// Why `text` is not a number in decimal digits (a whole one where `integer`), or null where it is one or is no number
// at all (which whoever reads it words, with the range it takes).
export function numberForm(text: string, integer: boolean): NumberForm | null {
  if (text !== text.trim()) return 'spaces';
  if (/^[+-]?0[xX]/.test(text)) return 'hex';
  if (/^[+-]?0[oO]/.test(text)) return 'octal';
  if (/^[+-]?0[bB]/.test(text)) return 'binary';
  if (text.includes('_')) return 'underscore';
  if (integer && /^[+-]?(\d+\.\d*|\.\d+|\d+[eE][+-]?\d+|\d+\.?\d*[eE][+-]?\d+)$/.test(text)) return 'notInteger';
  return null;
}

// The value of --NAME, a whole number from min to max: refused naming the form typed (numberForm), else `outOfRange`.
export function integerOption(name: string, text: string, range: { min: number; max: number }, outOfRange: () => UsageError): number {
  const form = numberForm(text, true);
  if (form) throw new UsageError(`usage.optionNotDecimal.${form}`, { name, value: text });
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= range.min && value <= range.max)) throw outOfRange();
  return value;
}

// The value of --NAME, any number in decimal from min (excluded) to max.
export function numberOption(name: string, text: string, range: { above: number; max: number }, outOfRange: () => UsageError): number {
  const form = numberForm(text, false);
  if (form) throw new UsageError(`usage.optionNotDecimal.${form}`, { name, value: text });
  const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value > range.above && value <= range.max)) throw outOfRange();
  return value;
}
