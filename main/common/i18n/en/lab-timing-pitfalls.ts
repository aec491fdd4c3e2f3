// timing-pitfalls's findings and series in English (the descriptor's words are in ../../timing-pitfalls.ts).
export const timingPitfalls = {
  // Each pitfall as a pair of series: the wrong way of timing the work and the right one.
  series: {
    'gpu-no-sync': 'GPU: no synchronisation vs CUDA events (wrong)',
    'gpu-events': 'GPU: no synchronisation vs CUDA events (right)',
    'gpu-cold': 'GPU: cold first call vs warmed (wrong)',
    'gpu-warm': 'GPU: cold first call vs warmed (right)',
    'cpu-cold': 'CPU: cold first call vs warmed (wrong)',
    'cpu-warm': 'CPU: cold first call vs warmed (right)',
    'cpu-one-thread': 'CPU: one thread vs all threads (wrong)',
    'cpu-all-threads': 'CPU: one thread vs all threads (right)',
  },
  // The points as the tables and charts name them.
  points: {
    'gpu-cold': 'GPU, first call (cold)',
    'cpu-cold': 'CPU, first call (cold)',
    'gpu-no-sync': 'GPU, clock stopped at launch',
    'gpu-events': 'GPU, CUDA events',
    'gpu-warm': 'GPU, warmed',
    'cpu-warm': 'CPU, warmed',
    'cpu-one-thread': 'CPU, one thread',
    'cpu-all-threads': 'CPU, all {threads} threads',
  },
  findings: {
    sync: 'Without synchronising, the GEMM seems to take {wrong}; CUDA events show it takes {right}, {ratio} longer. The clock stopped when the launch returned, long before the GPU finished.',
    // {side} is GPU or CPU; {min} to {max} the spread of the warmed samples, {median} their median.
    coldWithin: 'On the {side}, the cold first call ({cold}) is within the spread of the warmed calls ({min} to {max}, median {median}): no one-time cost stands out at this size.',
    coldSmall: 'The cold first {side} call took {cold} against {median} for a warmed one (warmed calls: {min} to {max}): {extra} more, {ratio}, a small one-time cost. It comes from {cause}.',
    coldLarge: 'The cold first {side} call took {cold} against {median} for a warmed one (warmed calls: {min} to {max}): {extra} more, {ratio}, from {cause}. Timed without a warm-up, that cost lands in the figure.',
    // What a cold point holds beyond a warmed call (the {cause} above).
    coldCauseGpu: 'fresh buffers, the first cuBLAS call of this shape on a new handle, and cold caches',
    coldCauseCpu: "an output buffer never touched before (the operating system maps its pages during the timed call), and no warm-up run, so the caches and the library's threads start cold",
    threadsWeak: 'All threads ({right}) are hardly faster than one ({wrong}) here: another program may be using the other cores, or the library ignored the thread count.',
    threads: "One CPU thread takes {wrong}, all threads {right}: {ratio} faster. Comparing a GPU with one CPU thread overstates the GPU's advantage by that factor.",
  },
} as const;
