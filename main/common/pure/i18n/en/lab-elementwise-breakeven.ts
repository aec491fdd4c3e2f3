// elementwise-breakeven's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
// {op} is the operation's own name (add, mul, exp), the same in every language.
import type { DescriptorText } from '../lab-text-types.ts';

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
    // Seed 003's exercise in PyTorch (python/gpu_lab_peers/labs/elementwise.py): its own CPU, then its GPU paths.
    'add-torch-cpu': 'add PyTorch CPU',
    'add-torch-transfers': 'add PyTorch GPU with transfers',
    'add-torch-resident': 'add PyTorch GPU resident',
    'mul-torch-cpu': 'mul PyTorch CPU',
    'mul-torch-transfers': 'mul PyTorch GPU with transfers',
    'mul-torch-resident': 'mul PyTorch GPU resident',
    'exp-torch-cpu': 'exp PyTorch CPU',
    'exp-torch-transfers': 'exp PyTorch GPU with transfers',
    'exp-torch-resident': 'exp PyTorch GPU resident',
  },
  // The two ways of running on the GPU, as the findings name them (the {path} of a break-even).
  paths: { 'gpu-transfers': 'GPU with transfers', 'gpu-resident': 'GPU resident' },
  // The CPU series a break-even reads against, as the findings name them (the {cpu} of a break-even).
  cpuNames: { cpu: 'GPU Lab’s CPU code', 'torch-cpu': 'PyTorch on the CPU' },
  // A series in the chart's panel of its operation, which names the operation: the legend's words.
  inPanel: {
    cpu: 'CPU',
    'gpu-transfers': 'GPU with transfers',
    'gpu-resident': 'GPU resident',
    'torch-cpu': 'PyTorch CPU',
    'torch-transfers': 'PyTorch GPU with transfers',
    'torch-resident': 'PyTorch GPU resident',
  },
  findings: {
    // {target} is the target speedup, a parameter: "2", not the "2.00" of a measured ratio. {cpu}: the fastest CPU
    // series measured, named (labs/analysis.ts, cpuSide); {beside}: the other CPU's crossing (besideBetween, …) or nothing.
    between: '{op}: the {path} becomes {target}× faster than {cpu} from about {size} elements{at}.{beside}',
    betweenRange: "{op}: the {path} becomes {target}× faster than {cpu} from about {size} elements (somewhere between {low} and {high}, within the medians' uncertainty){at}.{beside}",
    belowRange: '{op}: the {path} is already {target}× faster than {cpu} at the smallest size, {size} elements{at}.{beside}',
    never: '{op}: the {path} never becomes {target}× faster than {cpu} at the sizes measured (best {ratio} at {size} elements){at}.{beside}',
    at: '; at {reference} elements it is {ratio} the speed of {cpu}',
    besideBetween: ' Against {cpu}, from about {size} elements.',
    besideRange: " Against {cpu}, from about {size} elements (somewhere between {low} and {high}, within the medians' uncertainty).",
    besideBelow: ' Against {cpu}, already at the smallest size, {size} elements.',
    besideNever: ' Against {cpu}, at no size measured (best {ratio} at {size} elements).',
    cpuBandwidth: '{op} on the CPU streams {bestRate} at {bestSize} elements ({bestBytes} of arrays) but {largeRate} at {largeSize} ({largeBytes}), {drop} slower{cause}.',
    cacheFits: ': the smaller arrays fit in the {cache} last-level cache, the larger ones come from main memory',
    cacheExceeded: '; both exceed the {cache} last-level cache, so the caches do not explain it',
    copiesCost: '{op}: at {reference} elements keeping the data on the GPU is {ratio} faster than copying it there and back for each operation{times}.',
    copiesTimes: ' ({resident} resident against {withCopies} with copies)',
    // PyTorch's own break-even, its GPU against its CPU, as seed 003's exercise finds it.
    torchBetween: '{op} in PyTorch (the notebook’s code): the {path} becomes {target}× faster than PyTorch on the CPU from about {size} elements{at}.',
    torchBetweenRange:
      "{op} in PyTorch (the notebook’s code): the {path} becomes {target}× faster than PyTorch on the CPU from about {size} elements (somewhere between {low} and {high}, within the medians' uncertainty){at}.",
    torchBelowRange: '{op} in PyTorch (the notebook’s code): the {path} is already {target}× faster than PyTorch on the CPU at the smallest size, {size} elements{at}.',
    torchNever: '{op} in PyTorch (the notebook’s code): the {path} never becomes {target}× faster than PyTorch on the CPU (best {ratio} at {size} elements){at}.',
    torchAt: '; at {reference} elements it is {ratio} the speed of PyTorch on the CPU',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const elementwiseBreakevenDescriptor: DescriptorText = {
  title: 'Elementwise break-even: when does the GPU pay off?',
  summary: 'add, mul and exp over 10² … 10⁸ float32 elements: CPU against GPU with and without the copies; the size where the GPU becomes 2× faster.',
  explanation: [
    'An elementwise operation does one or two arithmetic operations per element and reads and writes every element once. It is limited by memory bandwidth, not by arithmetic, and for small arrays by fixed costs: launching a kernel takes a few microseconds, a copy across PCIe has a latency of about ten.',
    'This lab times the same operation over sizes from a hundred to a hundred million elements on the CPU (every core, unless the CPU threads parameter says fewer) and on the GPU, twice: once with the inputs copied to the GPU and the result copied back inside the timed region, as a program that calls the GPU on host arrays pays it, and once with the data already on the GPU. All three are read on the host\'s clock, launch and synchronisation included, because that is what a program waits for; CUDA events would leave the launch latency out and flatter the GPU at small sizes. The break-even size is read off the speedup curve, interpolated on log-log axes between the two measured sizes around it.',
    'Calls of a few microseconds are timed in batches: each sample runs the operation back to back for at least 5 ms and reports the mean of one call (each point\'s record keeps how many), as a program calling it in a loop would see it; a single reading that short would be mostly the clock\'s and the scheduler\'s jitter. The CPU\'s threads share each array out in small chunks as they become free, so a core that is late (woken slowly, busy with another program) costs its chunks, not the whole call.',
    'With copies, add and mul rarely win: the copies move as many bytes as the CPU has to read anyway, and PCIe is slower than the CPU\'s own memory. exp does more arithmetic per byte, so the GPU can earn back its copies sooner. Resident on the GPU, all three win once the array is large enough to hide the launch latency.',
  ],
  lookFor: [
    'The smallest size where the GPU is 2× faster, per operation, with and without copies (the seed exercise\'s table).',
    'The speedup at 1 M elements: below 1 the CPU is faster.',
    'How flat the GPU times are for small sizes: that plateau is the launch and copy latency.',
  ],
  parameters: {
    ops: { label: 'Operations', description: 'Elementwise operations to time.' },
    minExponent: { label: 'Smallest size', description: 'Smallest array: 10^this elements.' },
    maxExponent: { label: 'Largest size', description: 'Largest array: 10^this elements (10⁸ float32 = 381 MiB per array), at least the smallest.' },
    pointsPerDecade: { label: 'Sizes per decade', description: 'Measured sizes per factor of ten.' },
    target: { label: 'Target speedup', description: 'The break-even reported is where the GPU becomes this many times faster.' },
  },
  presets: {
    full: { label: 'Full sweep, 10² … 10⁸', description: 'add, mul and exp from a hundred to a hundred million elements, two sizes per decade.' },
    'seed-003': { label: 'The article\'s sizes, 10² … 10⁶ (HPC con GPU 3/22)', description: 'The sizes of the exercise\'s table, one per decade; the GPU may not reach 2× within them.' },
    fine: { label: 'Fine, 4 sizes per decade', description: 'Four sizes per decade for a sharper break-even, twice the points of the full sweep.' },
  },
};
