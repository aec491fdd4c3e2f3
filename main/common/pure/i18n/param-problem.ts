// A parameter main refused, worded in the reader's language from the lab's own descriptor (its label, limits and
// unit, already in that language) and main's reason; main's English where the reason is not one the app words. The
// app's form, the CLI and any other reader of an INVALID_PARAMS error word it here.
import type { ErrorPayload } from '../../errors.ts';
import type { LabDescriptor } from '../../lab-descriptor.ts';

type Translate = (key: string, named?: Record<string, string | number>) => string;

export interface ParamProblem {
  // The parameter at fault, or null when the message is about the whole request.
  parameter: string | null;
  // Main's words (English), shown where the app has none of its own for the reason.
  message: string;
  // Why, and what was typed, as main's details say.
  reason?: string;
  value?: string;
  other?: string;
  otherValue?: string;
}

// The problem an INVALID_PARAMS error's details describe.
export function paramProblemOf(e: Pick<ErrorPayload, 'message' | 'details'>): ParamProblem {
  const details = e.details ?? {};
  const text = (key: string): string | undefined => (typeof details[key] === 'string' ? (details[key] as string) : undefined);
  return { parameter: text('parameter') ?? null, message: e.message, reason: text('reason'), value: text('value'), other: text('other'), otherValue: text('otherValue') };
}

export function paramProblemText(problem: ParamProblem, lab: LabDescriptor, t: Translate): string {
  const p = lab.parameters.find((d) => d.name === problem.parameter);
  if (!p || problem.value === undefined) return problem.message;
  const label = `«${p.label}»`;
  if (problem.reason === 'at-least') {
    const other = lab.parameters.find((d) => d.name === problem.other);
    if (!other || problem.otherValue === undefined) return problem.message;
    return t('labs.params.invalid.atLeast', { label, value: problem.value, other: `«${other.label}»`, otherValue: problem.otherValue });
  }
  if (problem.reason !== 'not-allowed') return problem.message;
  const unit = 'unit' in p && p.unit ? ` ${p.unit}` : '';
  switch (p.kind) {
    case 'integer':
    case 'number': {
      const floor = p.atLeast ? lab.parameters.find((d) => d.name === p.atLeast) : undefined;
      const also = floor ? t('labs.params.invalid.also', { other: `«${floor.label}»` }) : '';
      return t(`labs.params.invalid.${p.kind}`, { label, value: problem.value, min: p.min, max: p.max, unit, also });
    }
    case 'choice':
      return t('labs.params.invalid.choice', { label, value: problem.value, choices: p.choices.join(', ') });
    case 'integer-list':
      return t('labs.params.invalid.integer-list', { label, value: problem.value, count: p.maxItems, min: p.min, max: p.max, unit });
    case 'choice-list':
      return t('labs.params.invalid.choice-list', { label, value: problem.value, count: p.choices.length, choices: p.choices.join(', ') });
  }
}
