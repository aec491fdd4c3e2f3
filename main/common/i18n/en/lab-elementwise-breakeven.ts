// elementwise-breakeven's findings and series in English (the descriptor's words are in ../../elementwise-breakeven.ts).
// {op} is the operation's own name (add, mul, exp), the same in every language.
export const elementwiseBreakeven = {
  series: {
    'add-cpu': 'add CPU',
    'add-gpu-transfers': 'add GPU with transfers',
    'add-gpu-resident': 'add GPU resident',
    'mul-cpu': 'mul CPU',
    'mul-gpu-transfers': 'mul GPU with transfers',
    'mul-gpu-resident': 'mul GPU resident',
    'exp-cpu': 'exp CPU',
    'exp-gpu-transfers': 'exp GPU with transfers',
    'exp-gpu-resident': 'exp GPU resident',
  },
  // The two ways of running on the GPU, as the findings name them (the {path} of a break-even).
  paths: { 'gpu-transfers': 'GPU with transfers', 'gpu-resident': 'GPU resident' },
  findings: {
    // {target} is the target speedup, a parameter: "2", not the "2.00" of a measured ratio.
    between: '{op}: the {path} becomes {target}× faster than the CPU from about {size} elements{at}.',
    belowRange: '{op}: the {path} is already {target}× faster than the CPU at the smallest size, {size} elements{at}.',
    never: '{op}: the {path} never becomes {target}× faster than the CPU (best {ratio} at {size} elements){at}.',
    at: "; at {reference} elements it is {ratio} the CPU's speed",
    cpuBandwidth: '{op} on the CPU streams {bestRate} at {bestSize} elements ({bestBytes} of arrays) but {largeRate} at {largeSize} ({largeBytes}), {drop} slower{cause}.',
    cacheFits: ': the smaller arrays fit in the {cache} last-level cache, the larger ones come from main memory',
    cacheExceeded: '; both exceed the {cache} last-level cache, so the caches do not explain it',
    copiesCost: '{op}: at {reference} elements keeping the data on the GPU is {ratio} faster than copying it there and back for each operation{times}.',
    copiesTimes: ' ({resident} resident against {withCopies} with copies)',
  },
} as const;
