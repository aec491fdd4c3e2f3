// vector-function's findings and series in English (the descriptor's words are in ../../vector-function.ts).
export const vectorFunction = {
  series: {
    'cpu-single': 'CPU, one thread',
    'cpu-threads': 'CPU, all threads',
    'gpu-transfers': 'GPU fused, with copies',
    'gpu-unfused': 'GPU resident, three passes',
    'gpu-fused': 'GPU resident, fused kernel',
  },
  findings: {
    threadsFlat:
      "All {threads} threads ({many}) are hardly faster than one ({one}): either one core at {rate} already saturates this machine's memory, or the other cores were busy.",
    threadsScale: 'Using all {threads} threads makes the CPU loop {ratio} faster than one thread ({many} against {one}, {rate}).',
    fusion:
      'Fusing the three passes into one kernel is {ratio} faster ({fused} against {unfused}): three passes move {unfusedBytes} bytes per element, the fused kernel {fusedBytes}, {bytesRatio} fewer, because the intermediate array never travels through memory.',
    bandwidth: "The fused kernel moves {size}B in {time}: {rate}, {share} of the GPU's theoretical memory bandwidth ({peak}). The function is memory-bound.",
    transferShare: 'Copies are {share} of the end-to-end GPU time ({withCopies} with copies, {resident} resident){copies}.',
    copies: ': {size}B across the bus in {time}, {rate} from pageable host memory',
    copiesSlower: 'With the copies, the GPU is slower than the threaded CPU ({gpu} against {cpu}, {ratio} its speed): for so little arithmetic per byte, moving the data costs more than computing.',
    copiesFaster: "Even with the copies, the GPU is {ratio} the threaded CPU's speed ({gpu} against {cpu}).",
  },
} as const;
