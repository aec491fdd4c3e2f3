// timing-pitfalls's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

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
    // The notebooks' own timings in PyTorch (python/gpu_lab_peers/labs/matmul.py, torch_resident), on the same GEMM.
    'torch-no-sync': 'PyTorch: no synchronisation vs CUDA events (wrong)',
    'torch-events': 'PyTorch: CUDA events (right)',
    'torch-time-time': 'PyTorch: time.time() after synchronize() vs CUDA events',
    'torch-cold': 'PyTorch: first call in a fresh process vs warmed (wrong)',
    'torch-warm': 'PyTorch: first call in a fresh process vs warmed (right)',
    // A WebGPU adapter's (labs/timing-pitfalls.ts): the tiled WGSL GEMM.
    'webgpu-submit': 'WebGPU: clock stopped at submit() vs at onSubmittedWorkDone() (wrong)',
    'webgpu-done': 'WebGPU: clock stopped at onSubmittedWorkDone() (right)',
    'webgpu-timestamps': 'WebGPU: timestamp queries around the pass',
    'webgpu-cold': 'WebGPU: cold first dispatch vs warmed (wrong)',
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
    'torch-no-sync': 'PyTorch, clock stopped at launch',
    'torch-events': 'PyTorch, CUDA events',
    'torch-time-time': 'PyTorch, time.time() after synchronize()',
    'torch-cold': 'PyTorch, first call of a fresh process (cold)',
    'torch-warm': 'PyTorch, warmed',
    'webgpu-cold': 'WebGPU, first dispatch, pipeline made (cold)',
    'webgpu-submit': 'WebGPU, clock stopped at submit()',
    'webgpu-done': 'WebGPU, clock stopped at onSubmittedWorkDone()',
    'webgpu-timestamps': 'WebGPU, timestamp queries',
  },
  findings: {
    sync: 'Without synchronising, the GEMM seems to take {wrong}; CUDA events show it takes {right}, {ratio} longer. The clock stopped when the launch returned, long before the GPU finished.',
    // {side} is GPU or CPU; {min} to {max} the spread of the warmed samples, {median} their median.
    coldWithin: 'On the {side}, the cold first call ({cold}) lies within the spread of the warmed calls ({min} to {max}, median {median}): no one-time cost stands out at this size.',
    coldBelow: 'On the {side}, the cold first call ({cold}) was faster than every warmed call ({min} to {max}, median {median}): no one-time cost shows at this size.',
    coldSmall: 'The cold first {side} call took {cold} against {median} for a warmed one (warmed calls: {min} to {max}): {extra} more, {ratio}, a small one-time cost. {cause}',
    coldLarge: 'The cold first {side} call took {cold} against {median} for a warmed one (warmed calls: {min} to {max}): {extra} more, {ratio}. Timed without a warm-up, that cost lands in the figure. {cause}',
    // What a cold point holds beyond a warmed call (the {cause} above).
    coldCauseGpu: 'This run does not measure what the cost is made of; the usual suspects are fresh buffers, the first cuBLAS call of this shape on a new handle, and cold caches.',
    coldCauseCpu: 'This run does not measure what the cost is made of; the usual suspects are an output buffer touched for the first time (its pages mapped during the call), and caches and library threads starting cold.',
    threadsWeak: 'All threads ({right}) and one thread ({wrong}) cannot be told apart here: another program may be using the other cores, or the library ignored the thread count.',
    threadsSlower: 'All threads ({right}) were slower than one ({wrong}), {ratio} the time: another program may be using the other cores, or the matrix is too small to share out.',
    threadsBeyond: 'One CPU thread takes {wrong}, all {threads} threads {right}: {ratio} faster, more than {threads} threads alone can give. This run does not show what else slowed the single thread, so read the ratio with care.',
    threads: "One CPU thread takes {wrong}, all threads {right}: {ratio} faster. Comparing a GPU with one CPU thread overstates the GPU's advantage by that factor.",
    // The same pitfalls in the notebook's PyTorch. {wrong} and {right} as above; a sentence for each way the two
    // medians' intervals can fall.
    torchSync: 'In PyTorch, a host clock stopped when torch.matmul(a, b) returns, with no torch.cuda.synchronize(), reads {wrong}; CUDA events read {right}, {ratio} that. The launch returned long before the GPU finished.',
    torchSyncUnclear: 'In PyTorch, a host clock stopped when torch.matmul(a, b) returns, with no torch.cuda.synchronize(), reads {wrong} and CUDA events {right}: their intervals do not tell them apart in this run.',
    torchTime: 'In PyTorch, time.time() around torch.matmul(a, b) and torch.cuda.synchronize() (the notebook’s timing_numba_GPU) reads {wrong}, CUDA events {right}: {ratio} the events’ figure. The host’s clock also counts the launch and the wait for the synchronise, which the events leave out.',
    torchTimeAgree: 'In PyTorch, time.time() around torch.matmul(a, b) and torch.cuda.synchronize() (the notebook’s timing_numba_GPU) reads {wrong} and CUDA events {right}: their intervals do not tell them apart in this run.',
    torchTimeBelow: 'In PyTorch, time.time() around torch.matmul(a, b) and torch.cuda.synchronize() reads {wrong}, less than CUDA events ({right}): the two clocks disagree in this run, and it does not show why.',
    // WebGPU's. {wrong}: the clock stopped when submit() returns; {right}: at onSubmittedWorkDone().
    webgpuSync: 'With the host clock stopped when submit() returns, the GEMM seems to take {wrong}; stopped at onSubmittedWorkDone() it takes {right}, {ratio} longer. submit() hands the work over and returns before it is done.',
    webgpuSyncUnclear: 'The host clock stopped when submit() returns ({wrong}) and stopped at onSubmittedWorkDone() ({right}) cannot be told apart at this precision in this run.',
    webgpuSyncOdd: 'The host clock stopped when submit() returns reads {wrong}, more than the {right} of the clock stopped at onSubmittedWorkDone(), {ratio}: the two disagree in this run, and it does not show why.',
    // {host}: submit() to onSubmittedWorkDone(); {device}: timestamp queries at the start and end of the compute pass.
    webgpuClock: 'The host clock from submit() to onSubmittedWorkDone() reads {host}; timestamp queries at the start and end of the compute pass read {device}, the host’s figure {ratio} theirs. The host’s interval spans the pass and adds the submission and the wait for the callback.',
    webgpuClockLevel: 'The host clock from submit() to onSubmittedWorkDone() ({host}) and timestamp queries at the start and end of the compute pass ({device}) cannot be told apart at this precision.',
    webgpuClockOdd: 'Timestamp queries at the start and end of the compute pass read {device}, more than the host clock from submit() to onSubmittedWorkDone() ({host}), which spans the pass: the two clocks disagree in this run, and it does not show why.',
    coldCauseWebgpu: 'The cold sample holds the making of a new pipeline (its WGSL compiled by Dawn and by the driver) and its first dispatch, the warmed samples neither; this run does not measure how the cost divides between them.',
    coldCauseTorch: 'This run does not measure what the cost is made of; in a fresh Python process the usual suspects are PyTorch creating its cuBLAS handle and workspace on the first product, loading the kernel, and cold caches. GPU Lab’s own cold point creates its handle before the clock starts.',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const timingPitfallsDescriptor: DescriptorText = {
  title: 'Timing pitfalls: the same work measured wrongly and rightly',
  summary: 'No synchronisation against CUDA events, a cold first call against warmed calls, one CPU thread against all of them.',
  explanation: [
    'A GPU runs asynchronously: launching a kernel returns at once and the GPU works on while the CPU carries on. Reading a clock right after the launch measures how long it took to queue the work, not to do it. The right ways are CUDA events recorded on the GPU\'s own timeline, or synchronising before reading the host clock.',
    'The first call of anything pays one-time costs: loading a library, creating a CUDA context or a cuBLAS handle, compiling or loading kernels, the operating system mapping fresh memory page by page. Warm-up runs keep those costs out of the figure you compare. Here the compute host has loaded the libraries and created the context and the handle before the clock starts, so the cold point catches only what is left: fresh buffers, the first call of this shape, cold caches. That can be small; the very first GPU call of a script pays for the loading too.',
    'Libraries such as NumPy and PyTorch use every CPU core. Comparing a GPU with a single CPU thread, or a threaded library with a single-thread loop, makes any speedup look larger than it is: state the thread count, or measure both as here.',
  ],
  lookFor: [
    'How many times shorter the unsynchronised time is than the true time.',
    'How much slower the first call is than the warmed ones, and whether the difference stands out of the warmed calls\' own spread.',
    'The gain of all CPU threads over one.',
  ],
  parameters: {
    n: { label: 'Matrix size N', description: 'Size of the N×N float32 GEMM used for every pitfall.' },
  },
  presets: {
    default: { label: 'N = 2,048', description: 'A GEMM long enough to see each mistake clearly.' },
    small: { label: 'N = 256: launch costs dominate', description: 'So little work that an unsynchronised clock reads almost nothing and the first call is mostly start-up.' },
  },
};
