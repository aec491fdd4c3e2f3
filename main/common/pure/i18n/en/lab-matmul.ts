// matmul's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

export const matmul = {
  series: {
    'cpu-blas': 'CPU BLAS',
    'gpu-transfers': 'GPU cuBLAS with transfers',
    'gpu-cublas': 'GPU cuBLAS resident',
    // WebGPU's only: the tiled WGSL kernel with A and B written in and C read back in its time.
    'gpu-tiled-transfers': 'GPU tiled kernel with transfers',
    'gpu-tiled': 'GPU tiled kernel',
    'gpu-naive': 'GPU naive kernel',
    'numpy-matmul': 'NumPy’s product (the notebook)',
    'torch-resident': 'PyTorch on the GPU, resident',
    'torch-copies': 'PyTorch on the GPU with .to() and .cpu()',
  },
  findings: {
    cpuRate: '{cpu}, on {threads} threads, multiplies the matrices in {time}: {rate}.',
    // {cpu}: the fastest CPU series measured, named (labs/analysis.ts, cpuSide); {beside}: the other, speedupBeside.
    speedup: '{series}: {time}, {ratio} the speed of {cpu}{beside} ({rate}{peak}).',
    // With the copies: no rate, the time is mostly the bus's.
    speedupNoRate: '{series}: {time}, {ratio} the speed of {cpu}{beside} (copies and product in one time: no rate).',
    speedupBeside: ' {ratio} that of {cpu}',
    peakShare: ", {share} of the GPU's fp32 peak",
    transferShare: 'Transfers are {share} of the end-to-end GPU time ({withCopies} with copies, {resident} without){copies}.',
    transferShareLevel: 'With the copies ({withCopies}) and without them ({resident}), the GPU times cannot be told apart at this precision: what the copies cost does not show in this run.',
    copies: ': {time} to move A and B to the GPU and C back, {size} at {rate} from pageable host memory (see the transfer lab)',
    // On WebGPU: queue.writeBuffer in, a mapped staging buffer out (host/webgpu/backend.ts).
    copiesWebgpu: ': {time} to write A and B to the GPU with writeBuffer and read C back through a mapped buffer, {size} at {rate} (see the transfer lab)',
    tiling:
      'The tiled kernel ({tiled}) is {ratio} faster than the naive one ({naive}): each value it fetches from global memory serves 128 multiply-adds instead of one, and each value it reads from shared memory serves 8.',
    // The WGSL kernel (shaders/wgsl/gemm.wgsl): 64×64 tiles, 4×4 outputs per invocation.
    tilingWgsl:
      'The tiled kernel ({tiled}) is {ratio} faster than the naive one ({naive}): each value it fetches from a storage buffer serves 64 multiply-adds instead of one, and each value it reads from workgroup memory serves 4.',
    // Where the two medians' intervals do not put the tiled kernel ahead.
    tilingSlower: 'The tiled kernel ({tiled}) was slower than the naive one ({naive}) here, {ratio} its time: the reuse its tiles buy does not show in this run.',
    tilingLevel: 'The tiled kernel ({tiled}) and the naive one ({naive}) cannot be told apart at this precision: the reuse its tiles buy does not show in this run.',
    // cuBLAS against the tiled kernel, by how far apart they are; sameUnits is the clause all three share.
    tiledFaster: 'The tiled kernel is {ratio} faster than cuBLAS here ({cublas} against {tiled}): {sameUnits}, so a well-tiled kernel can match the library at some sizes.',
    cublasClose:
      "cuBLAS is only {ratio} faster than the tiled kernel ({cublas} against {tiled}): the tiled kernel already does what matters most, shared-memory tiles and 8×8 outputs per thread in registers, and {sameUnits}. What makes up the rest this run does not measure; the usual suspects are cuBLAS's tile shapes and pipelining, tuned for this GPU.",
    cublasFaster: 'cuBLAS is {ratio} faster than the tiled kernel ({cublas} against {tiled}): register blocking, tile shapes and pipelining tuned for this GPU; {sameUnits}.',
    libraryLevel: 'cuBLAS ({cublas}) and the tiled kernel ({tiled}) cannot be told apart at this precision: {sameUnits}, so a well-tiled kernel can match the library at some sizes.',
    sameUnits: 'both run on the same fp32 FMA units (fp32 GEMM uses no tensor cores; tf32, fp16, bf16 and int8 do, see the dtypes lab)',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const matmulDescriptor: DescriptorText = {
  title: 'Matrix product: CPU, GPU, and the cost of getting there',
  summary: 'C = A·B for N = 7,000 float32 on the CPU (BLAS) and the GPU: with and without transfers, cuBLAS against hand-written naive and tiled kernels.',
  explanation: [
    'A product of two N×N matrices does 2·N³ floating-point operations on 3·N² numbers: for N = 7,000 that is 686 billion operations on 561 MiB. Each number is used N times, so the work is limited by arithmetic, not by memory: this is where a GPU shines.',
    'The course notebook measured this on an RTX 2080 Ti: 580 ms with NumPy on the CPU, 106.5 ms on the GPU counting the copies of A and B to the GPU and of C back, and 50.4 ms with the matrices already there. This lab repeats the experiment properly: warmed up, repeated, and every result checked against a float64 recomputation of sampled entries.',
    'The hand-written kernels show what it takes to approach the library. The naive kernel computes one output per thread straight from global memory: two loads for every multiply-add, so the loads, not the arithmetic, set the pace. The tiled kernel gives each block of 256 threads a 128×128 tile of C. It stages 128×16 slabs of A and 16×128 slabs of B in shared memory, so each value fetched from global memory serves 128 multiply-adds, and each thread keeps an 8×8 piece of C in registers, so each value read from shared memory serves 8. The next slabs are loaded while the current ones are used.',
    'cuBLAS does the same things with tile shapes and pipelining tuned for each GPU. This lab asks it for fp32 arithmetic (CUBLAS_COMPUTE_32F, no TF32), which runs on the same fp32 FMA units as the hand-written kernels: the tensor cores only come in with tf32, fp16, bf16 or int8, as the dtypes lab shows.',
    'On a WebGPU adapter there is no cuBLAS: the two kernels run in WGSL (shaders/wgsl/gemm.wgsl), and the tiled one is also timed with the copies, in cuBLAS’s place. WebGPU guarantees only 16 KiB of workgroup memory, so its tiled kernel gives each workgroup of 256 invocations a 64×64 tile of C, staged in 64×16 and 16×64 slabs, and each invocation a 4×4 piece: each value fetched serves 64 multiply-adds, each value read from workgroup memory 4.',
  ],
  lookFor: [
    'The speedup of the GPU over the CPU with and without transfers, and the share of the end-to-end time the transfers take.',
    'GFLOP/s of each version, and how far each is from the GPU\'s theoretical peak.',
    'How much tiling gains over the naive kernel, and how much cuBLAS gains over tiling.',
  ],
  parameters: {
    n: { label: 'Matrix size N', description: 'The matrices are N×N float32 (3·N²·4 bytes in all).' },
    cpuRepeats: { label: 'CPU repeats', description: 'Timed CPU samples: at N = 7,000 one takes seconds on a laptop.' },
  },
  presets: {
    'seed-000': { label: 'N = 7,000 (Lab 6)', description: 'The notebook\'s 7000×7000 float32 product (an RTX 2080 Ti took 580 ms on the CPU, 106.5 ms with transfers, 50.4 ms resident).' },
    laptop: { label: 'N = 2,000, for a laptop', description: 'Forty times less work: the CPU side finishes in seconds.' },
  },
};
