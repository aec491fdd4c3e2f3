// dtypes's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

export const dtypes = {
  // torch: seed 003's table of dtypes in PyTorch (python/gpu_lab_peers/labs/matmul.py), one GEMM per dtype.
  series: { cpu: 'CPU', gpu: 'GPU', torch: 'PyTorch on the GPU' },
  findings: {
    // The footprint list: one item per type, joined by footprintList from the last.
    footprint: 'One {size}×{size} matrix takes {list}.',
    footprintItem: '{bytes} in {dtype}',
    footprintList: '{item}, {rest}',
    cpuFp64: 'On the CPU, fp32 GEMM runs {ratio} as fast as fp64 ({fp32} against {fp64}){why}.',
    cpuSimd: ": the product is compute-bound here (its FLOPs per byte exceed this CPU's ridge point), and a SIMD register holds twice as many fp32 numbers",
    gpuFp32: 'GPU fp32: {rate}{peak}, relative error {error} against float64. The yardstick for the other types: fp32 GEMM runs on the fp32 units, not the tensor cores.',
    gpuFp32Peak: ', {share} of the {peak} its fp32 units can do',
    // The same shares of NVIDIA's datasheet figure for the card (common/pure/gpu-peaks.ts, datasheetPeak).
    gpuFp32PeakDatasheet: ', {share} of the {peak} NVIDIA’s datasheet gives its fp32 units',
    gpuType: "GPU {dtype}: {rate}{peak}, {ratio} fp32's speed, relative error {error} against float64.{tensorCores}",
    tensorPeak: ' ({share} of the {peak} its tensor cores can do at this type)',
    unitsPeak: ' ({share} of the {peak} its {dtype} units can do)',
    tensorPeakDatasheet: ' ({share} of the {peak} NVIDIA’s datasheet gives its tensor cores at this type)',
    unitsPeakDatasheet: ' ({share} of the {peak} NVIDIA’s datasheet gives its {dtype} units)',
    fp64TensorCores: ' It is faster than the {peak} the fp64 units can do: cuBLAS runs fp64 GEMM on the fp64 tensor cores that data-centre GPUs (A100, H100, H200) have.',
    // A run on a WebGPU adapter (labs/dtypes.ts; the kernel is shaders/wgsl/gemm.wgsl).
    webgpuTypes: 'On WebGPU the products run GPU Lab’s tiled WGSL kernel (shaders/wgsl/gemm.wgsl), not cuBLAS, in f32 and f16 only: WGSL has no arithmetic in the other types. Its f16 product stores the matrices in f16 and sums in f32.',
    cpuError: 'CPU {dtype} GEMM: relative error {error} against float64 (tolerance {tolerance}).',
    // A relative error as JavaScript's toExponential(1) writes it ("2.5e-4"), its decimal separator the language's.
    scientific: '{whole}.{tenth}e{exponent}',
    errorExact: '0 (exact)',
    errorUnknown: 'unknown',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const dtypesDescriptor: DescriptorText = {
  title: 'Data types: memory, speed and precision',
  summary: 'fp64, fp32, tf32, fp16, bf16 and int8: the footprint of an N×N matrix, GEMM throughput and the error against float64.',
  explanation: [
    'Every halving of the bytes per element halves the memory a tensor needs and the time to move it, and on GPUs with tensor cores it multiplies the arithmetic rate. The price is precision: fp16 keeps about 3 decimal digits and overflows above 65,504; bf16 keeps fp32\'s range with even fewer digits; tf32 is fp32 in memory but multiplied with a 10-bit mantissa; int8 holds integers from −128 to 127.',
    'Here fp32 GEMM (CUBLAS_COMPUTE_32F) never touches the tensor cores: it runs on the fp32 units, which is why it is the yardstick. fp64 depends on the GPU: consumer GPUs have few fp64 units and run it at 1/32 or 1/64 of fp32, while data-centre GPUs (A100, H100, H200) also have fp64 tensor cores, so there fp64 GEMM can match fp32.',
    'This lab computes the footprint of an N×N matrix in each type, then multiplies two such matrices in each type and compares sampled entries of the result with a float64 recomputation from the same stored inputs. The error shown is therefore the error of the arithmetic (rounding of products, sums and output), not of converting your data.',
  ],
  lookFor: [
    'TFLOP/s per type on the GPU: tensor-core types (tf32, fp16, bf16, int8) far above fp32; fp64 far below on consumer GPUs, near fp32 on data-centre GPUs with fp64 tensor cores.',
    'The relative error per type: around 1e-7 for fp32, 1e-4 to 1e-3 for tf32 and fp16, around 1e-3 for bf16 (8 bits of mantissa against fp16\'s 11), 0 for int8 (integer sums are exact).',
    'On the CPU, fp32 at about twice fp64\'s rate.',
  ],
  parameters: {
    n: { label: 'Matrix size N', description: 'N×N matrices for the footprint and the GEMMs.' },
    dtypes: { label: 'Data types', description: 'Types to measure.' },
  },
  presets: {
    'seed-003': { label: 'N = 4,096, as in the article', description: 'The course\'s dtype comparison (the article “HPC con GPU”, 3/22): every type on a 4096×4096 GEMM.' },
    quick: { label: 'Quick: N = 1,024', description: 'A smaller matrix: seconds on a laptop CPU, but too small to fill a large GPU.' },
  },
};
