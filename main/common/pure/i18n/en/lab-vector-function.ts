// vector-function's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

export const vectorFunction = {
  series: {
    'cpu-single': 'CPU, one thread',
    'cpu-threads': 'CPU, all threads',
    'gpu-transfers': 'GPU fused, with copies',
    'gpu-unfused': 'GPU resident, three passes',
    'gpu-fused': 'GPU resident, fused kernel',
    'numpy-notebook': 'NumPy, as the notebook writes it',
    'numba-njit': 'Numba njit loop, one core',
    'numba-parallel': 'Numba njit(parallel=True), all cores',
    'cupy-notebook': 'CuPy on the GPU, as written',
    'cupy-fused': 'CuPy on the GPU, fused (cupy.fuse)',
    'cupy-copies': 'CuPy on the GPU with the copies',
    'numba-cuda-vectorize': 'Numba vectorize(target="cuda")',
    'numba-cuda-vectorize-time': 'Numba vectorize(target="cuda"), time.time()',
    'numba-cuda-vectorize-loop': 'Numba vectorize(target="cuda"), events around a loop',
    'numba-cuda-copies': 'Numba vectorize(target="cuda") with automatic copies',
    'numba-cuda-copies-time': 'Numba vectorize(target="cuda") with automatic copies, time.time()',
    'numba-cuda-copies-loop': 'Numba vectorize(target="cuda") with automatic copies, events around a loop',
  },
  findings: {
    webgpuF32:
      'On WebGPU the GPU series run in float32, not the course’s float64: WGSL has no 64-bit float type. The fused kernel moves {fusedBytes} bytes per element, the three passes {unfusedBytes}, half what they move in float64.',
    threadsFlat:
      "All {threads} threads ({many}) and one ({one}) cannot be told apart at this precision: either one core at {rate} already saturates this machine's memory, or the other cores were busy.",
    threadsSlower: 'All {threads} threads ({many}) were slower than one ({one}), {ratio} the time: the other cores were busy, or sharing so little work out costs more than it gains.',
    threadsScale: 'Using all {threads} threads makes the CPU loop {ratio} faster than one thread ({many} against {one}, {rate}{cache}).',
    fusion:
      'Fusing the three passes into one kernel is {ratio} faster ({fused} against {unfused}): three passes move {unfusedBytes} bytes per element, the fused kernel {fusedBytes}, {bytesRatio} fewer, because the intermediate array never travels through memory.',
    fusionLevel:
      'The fused kernel ({fused}) is not measurably faster than the three passes ({unfused}) here, though it moves {fusedBytes} bytes per element against {unfusedBytes}: at this size something other than memory traffic sets the time.',
    bandwidth: "The fused kernel moves {size} in {time}: {rate}, {share} of the GPU's theoretical memory bandwidth ({peak}). The function is memory-bound.",
    transferShare: 'Copies are {share} of the end-to-end GPU time ({withCopies} with copies, {resident} resident){copies}.',
    copies: ': {size} across the bus in {time}, {rate} from pageable host memory',
    copiesSlower: 'With the copies, the GPU is slower than the threaded CPU ({gpu} against {cpu}, {ratio} its speed): for so little arithmetic per byte, moving the data costs more than computing.',
    copiesFaster: "Even with the copies, the GPU is {ratio} the threaded CPU's speed ({gpu} against {cpu}).",
    copiesLevel: 'With the copies, the GPU ({gpu}) and the threaded CPU ({cpu}) cannot be told apart at this precision.',
    numpySlower:
      'NumPy as the notebook writes it ({numpy}) takes {ratio} the time of GPU Lab’s one-thread loop ({one}): each operator of a * x**2 + b * y + c makes a temporary array, {numpyBytes} bytes per element through memory against the loop’s {loopBytes}.',
    numpyFaster: 'NumPy as the notebook writes it ({numpy}) beat GPU Lab’s one-thread loop ({one}), {ratio} faster, though its temporary arrays move {numpyBytes} bytes per element against the loop’s {loopBytes}.',
    numpyLevel: 'NumPy as the notebook writes it ({numpy}) and GPU Lab’s one-thread loop ({one}) cannot be told apart at this precision, though its temporary arrays move {numpyBytes} bytes per element against the loop’s {loopBytes}.',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const vectorFunctionDescriptor: DescriptorText = {
  title: 'A vector function: loops, threads, copies and kernel fusion',
  summary: 'z = a·x² + b·y + c over 5 M float64: one CPU thread, every CPU thread, the GPU with copies, and unfused against fused kernels.',
  explanation: [
    'Evaluating z = a·x² + b·y + c does five operations per element on 24 bytes (read x and y, write z, 8 bytes each). At that ratio no processor is limited by arithmetic: the time is the time to stream the arrays through memory.',
    'The course notebook compared a Numba loop (8 ms), NumPy (18 ms, slower because each operator makes a temporary array), CuPy with copies (20.7 ms) and without (4.4 ms). Here the same experiment runs with native loops and CUDA kernels, each verified against a float64 reference.',
    'On the GPU, writing the expression as separate array operations launches three kernels that each read and write whole arrays; a fused kernel reads x and y once and writes z once. Fusion is the GPU version of what NumPy lacks and Numba gives you on the CPU.',
  ],
  lookFor: [
    'How much all CPU threads gain over one: a memory-bound loop stops scaling once memory is saturated.',
    'The share of the GPU time that goes to copies, and whether the GPU still beats the CPU with them.',
    'The fused kernel\'s GB/s against the GPU\'s theoretical bandwidth.',
  ],
  parameters: {
    elements: { label: 'Elements', description: 'Length of x, y and z (float64).' },
    a: { label: 'a', description: 'Coefficient of x².' },
    b: { label: 'b', description: 'Coefficient of y.' },
    c: { label: 'c', description: 'Constant term.' },
  },
  presets: {
    'seed-001': { label: '5 M elements (Lab 6)', description: 'z = 3.5·x² + 2.8·y + 10 over 5,000,000 float64, as the notebook does it.' },
    large: { label: '50 M elements', description: 'Ten times larger (1.2 GB of arrays): far past every cache, so memory bandwidth alone decides.' },
  },
};
