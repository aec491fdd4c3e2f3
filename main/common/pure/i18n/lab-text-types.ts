// The shapes of the labs' words in a second language: the same keys as English (TextOf), and what a descriptor says
// of itself, by parameter name and preset id rather than by position, so that reordering a lab's parameters cannot
// pair a label with the wrong one.

export type { TextOf } from './translate.ts';

export interface ParameterText {
  label: string;
  description: string;
}

export interface DescriptorText {
  title: string;
  summary: string;
  explanation: string[];
  lookFor: string[];
  // Every parameter of the lab, except those of sharedParameters (repeats, warmup) where the lab's wording is theirs.
  parameters: Record<string, ParameterText>;
  presets: Record<string, ParameterText>;
}
