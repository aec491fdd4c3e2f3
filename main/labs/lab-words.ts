// What a lab says of itself in English, read from the catalog (common/pure/i18n/en/lab-*.ts) rather than written in the
// lab's code: its title, summary, explanation and what to look for, and the words of each parameter and preset. A
// lab or a name the catalog lacks is a bug caught when the labs load (tests/unit/labs/lab-text.test.ts).
import { labDescriptors, sharedParameters } from '../common/pure/i18n/en/lab-text.ts';
import type { DescriptorText, ParameterText } from '../common/pure/i18n/lab-text-types.ts';

function wordsOf(lab: string): DescriptorText {
  const text = labDescriptors[lab];
  if (!text) throw new Error(`The English catalog has no words for lab "${lab}"`);
  return text;
}

export function aboutLab(lab: string): Pick<DescriptorText, 'title' | 'summary' | 'explanation' | 'lookFor'> {
  const { title, summary, explanation, lookFor } = wordsOf(lab);
  return { title, summary, explanation: [...explanation], lookFor: [...lookFor] };
}

// A parameter's label and description: the lab's own wording, else the one the labs share.
export function paramWords(lab: string, name: string): ParameterText {
  const words = wordsOf(lab).parameters[name] ?? (sharedParameters as Record<string, ParameterText | undefined>)[name];
  if (!words) throw new Error(`The English catalog has no words for parameter "${name}" of lab "${lab}"`);
  return { label: words.label, description: words.description };
}

export function presetWords(lab: string, id: string): ParameterText {
  const words = wordsOf(lab).presets[id];
  if (!words) throw new Error(`The English catalog has no words for preset "${id}" of lab "${lab}"`);
  return { label: words.label, description: words.description };
}
