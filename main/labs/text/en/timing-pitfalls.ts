// timing-pitfalls's findings and series in English (the descriptor's words are in ../../timing-pitfalls.ts).
export const timingPitfalls = {
  series: {},
  findings: {},
} as const;
