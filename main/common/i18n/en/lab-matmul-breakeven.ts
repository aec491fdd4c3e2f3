// matmul-breakeven's findings and series in English (the descriptor's words are in ../../matmul-breakeven.ts).
export const matmulBreakeven = {
  series: { cpu: 'CPU BLAS', 'gpu-transfers': 'GPU with transfers', 'gpu-resident': 'GPU resident' },
  findings: {
    cpuRate: 'The CPU peaks at {rate} (N = {n}, {time}).',
    overtakes: 'The {series} overtakes the CPU from about N = {size}.',
    faster: 'The {series} is faster than the CPU at every size measured, from N = {n}.',
    level: 'The {series} is level with the CPU at N = {n}{ratio} and at least as fast at every larger size measured: the break-even is at or below the smallest size; add smaller sizes to find it.',
    levelRatio: ' ({ratio} its speed, within the spread of the samples)',
    never: 'The {series} never beats the CPU here (best {ratio} at N = {n}).',
    range: "{series}: {small} the CPU's speed at N = {smallest}, {large} at N = {largest}{best}.",
    rangeBest: '; at best {rate}, at N = {n}',
  },
} as const;
