// matmul-breakeven's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

export const matmulBreakeven = {
  series: {
    cpu: 'CPU BLAS',
    'gpu-transfers': 'GPU with transfers',
    'gpu-resident': 'GPU resident',
    // Seed 003's article in PyTorch (python/gpu_lab_peers/labs/matmul.py): torch.matmul on its CPU and on the GPU.
    'torch-cpu': 'PyTorch on the CPU',
    'torch-transfers': 'PyTorch GPU with .to() and .cpu()',
    'torch-resident': 'PyTorch GPU resident',
  },
  findings: {
    cpuRate: '{cpu} peaks at {rate} (N = {n}, {time}).',
    // {cpu}: the fastest CPU series measured, named (labs/analysis.ts, cpuSide); {beside}: the other CPU series, a
    // sentence of its own (besideBetween, besideBelow, besideNever) or nothing.
    overtakes: 'The {series} overtakes {cpu} from about N = {size}.{beside}',
    overtakesRange: "The {series} overtakes {cpu} from about N = {size} (somewhere between N = {low} and N = {high}, within the medians' uncertainty).{beside}",
    faster: 'The {series} is faster than {cpu} at every size measured, from N = {n}.{beside}',
    level: 'The {series} is level with {cpu} at N = {n}{ratio} and at least as fast at every larger size measured: the break-even is at or below the smallest size; add smaller sizes to find it.{beside}',
    levelRatio: ' ({ratio} its speed, within the spread of the samples)',
    never: 'The {series} never beats {cpu} here (best {ratio} at N = {n}).{beside}',
    besideBetween: ' Against {cpu}, from about N = {size}.',
    besideBelow: ' Against {cpu}, already at the smallest size measured, N = {n}, by the medians.',
    besideNever: ' Against {cpu}, at no size measured (best {ratio} at N = {n}).',
    range: '{series}: {small} the speed of {cpu} at N = {smallest}, {large} at N = {largest}{best}.',
    rangeBest: '; at best {rate}, at N = {n}',
    // PyTorch's own break-even, its GPU against its CPU, as the article measures it.
    torchOvertakes: 'In PyTorch (the notebook’s code), the {series} overtakes PyTorch on the CPU from about N = {size}.',
    torchBelow: 'In PyTorch (the notebook’s code), the {series} is at least as fast as PyTorch on the CPU (by the medians) from the smallest size measured, N = {n}: its break-even is at or below it.',
    // A run on a WebGPU adapter (labs/matmul-breakeven.ts).
    webgpuKernel: 'On WebGPU the GPU series run GPU Lab’s tiled WGSL kernel (shaders/wgsl/gemm.wgsl), not cuBLAS: WebGPU has no vendor library for matrix products.',
    torchNever: 'In PyTorch (the notebook’s code), the {series} never beats PyTorch on the CPU here (best {ratio} at N = {n}).',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const matmulBreakevenDescriptor: DescriptorText = {
  title: 'Matrix product break-even: from which N does the GPU win?',
  summary: 'N = 50 … 5,000 float32: CPU BLAS against the GPU including transfers; the time against N and the size where the GPU overtakes.',
  explanation: [
    'The work of a matrix product grows as N³ while the data to copy grows as N². For small matrices the fixed costs dominate: a kernel launch, a copy across PCIe, a synchronisation, each worth microseconds, while the CPU finishes a 100×100 product in about as long. As N grows the arithmetic takes over and the GPU\'s thousands of cores win.',
    'The course article measured this on an RTX 3080: at N = 100 the CPU was 5× faster (0.08 ms against 0.42 ms with transfers), at N = 500 they were even, at N = 1,000 the GPU was 4.8× faster and at N = 5,000 23×. This lab measures the same curve on your machine and interpolates the crossing on log-log axes.',
  ],
  lookFor: [
    'The N where the GPU with transfers overtakes the CPU.',
    'The rates in the table, CPU and resident GPU, against N: the CPU flattens early, the GPU keeps climbing until it saturates. The GPU with transfers has no rate: its time is mostly the bus’s.',
    'The gap between "with transfers" and "resident": where the work (N³) outgrows the copies (N²) it shrinks; at small N, where launch and latency set the resident time, it can grow. See which your sizes show.',
  ],
  parameters: {
    sizes: { label: 'Matrix sizes N', description: 'The N of each N×N float32 product.' },
  },
  presets: {
    default: { label: 'N = 50 … 5,000', description: 'The article\'s sizes, with 50, 200 and 2,000 added so that each break-even lies between two measured sizes.' },
    'seed-003': { label: 'The article\'s sizes (HPC con GPU 3/22)', description: 'N = 100, 500, 1,000 and 5,000, as the exercise lists them.' },
    small: { label: 'Small matrices, N = 16 … 512', description: 'Where launch and copy latency decide: the GPU may lose at every size.' },
  },
};
