// The exercises' words in English: titles, statements, hints, and what each kernel that comes with an exercise is.
import type { ExerciseId } from '../../../playground.ts';

export interface ExerciseText {
  title: string;
  statement: string[];
  hints: string[];
  sizeLabel: string;
  work: string;
  kernels: Record<string, { title: string; note: string }>;
  builtins: Record<string, string>;
}

export type PlaygroundText = Record<ExerciseId, ExerciseText>;

export const exercises: PlaygroundText = {
  'polynomial-fp32': {
    title: 'Polynomial z = a·x² + b·y + c (fp32)',
    statement: [
      'Write a kernel that computes z[i] = a·x[i]² + b·y[i] + c for every i < n, in single precision. This is the vector function of the labs, as a student writes it in PyCUDA with a SourceModule.',
      'The kernel is checked against a float64 computation on the CPU over fresh random x and y in [−1, 1), with a = 3.5, b = 2.8, c = 10 and z filled with NaN first, so an element the kernel never writes is caught. Only a verified kernel is timed.',
      'Three floats move per element, 12 bytes, for three multiply-adds: the kernel can only be as fast as memory lets it. Compare your GB/s with the device peak.',
    ],
    hints: [
      'One thread per element: i = blockIdx.x · blockDim.x + threadIdx.x, and return when i ≥ n — the last block usually runs past the end.',
      'With the grid on automatic, the grid is ⌈n / blockDim.x⌉ blocks. With your own grid, a grid-stride loop (i += gridDim.x · blockDim.x) covers any n.',
      'Loading four floats at once (float4) cuts the number of memory instructions by four; cudaMalloc aligns buffers to 256 bytes, but the n mod 4 elements at the end need a scalar path.',
    ],
    sizeLabel: 'Elements (n)',
    work: '12 bytes per element: x and y read, z written (4 bytes each)',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'The plain version: correct, and already close to the memory bandwidth.' },
      float4: { title: 'Reference: float4 loads and stores', note: 'Four elements per thread in 16-byte accesses, with a scalar tail.' },
    },
    builtins: {},
  },
  'polynomial-fp64': {
    title: 'Polynomial z = a·x² + b·y + c (fp64)',
    statement: [
      'The same polynomial in double precision: z[i] = a·x[i]² + b·y[i] + c for every i < n, with a = 3.5, b = 2.8, c = 10 — the vector-function lab on 5 M elements.',
      'The result is checked against the CPU in float64 to a relative error of 10⁻¹², which leaves room only for the fused multiply-adds the GPU compiler uses.',
      '24 bytes move per element. On the chart beside your kernel: the lab\'s fused kernel compiled at run time, and the engine\'s own fused and unfused (three-pass) versions.',
    ],
    hints: [
      'Same indexing as the fp32 exercise; every float becomes a double, including a, b and c.',
      'The unfused version reads and writes a temporary array three times: 56 bytes per element instead of 24. Fusing is the whole gain.',
      'double2 moves two doubles in one 16-byte access: one thread per pair, and one more thread for an odd n.',
    ],
    sizeLabel: 'Elements (n)',
    work: '24 bytes per element: x and y read, z written (8 bytes each)',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'The plain version, in double precision.' },
      'builtin-fused': { title: 'Reference: the lab\'s fused kernel (double2)', note: 'The vector-function lab\'s kernel, from shaders/cuda, compiled here by NVRTC.' },
    },
    builtins: { 'vector-function-fused': 'Built-in fused kernel (engine)', 'vector-function-unfused': 'Built-in unfused, three passes (engine)' },
  },
  saxpy: {
    title: 'SAXPY: out = a·x + y',
    statement: [
      'Write the BLAS level-1 classic: out[i] = a·x[i] + y[i] for every i < n, in single precision, with a = 2.5.',
      'The output is checked element by element against float64 on the CPU after being filled with NaN. 12 bytes move per element for two floating-point operations, so this is a bandwidth exercise.',
    ],
    hints: [
      'Guard the last block: if (i < n).',
      'A grid-stride loop lets a grid of a few blocks per multiprocessor cover any n, and lets you try grids smaller than n / blockDim.x.',
      'Try block sizes of 64, 128, 256 and 1024 and watch the occupancy and the GB/s: past a point, more threads per block change nothing for a memory-bound kernel.',
    ],
    sizeLabel: 'Elements (n)',
    work: '12 bytes per element: x and y read, out written',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'Correct and simple.' },
      'grid-stride-float4': { title: 'Reference: grid-stride loop over float4', note: 'Fewer, wider memory accesses, and any grid covers any n.' },
    },
    builtins: { cublas: 'cuBLAS Saxpy (in place: y ← a·x + y)' },
  },
  reduction: {
    title: 'Reduction: the sum of n floats',
    statement: [
      'Write a kernel that adds all n elements of x into *total. *total is set to 0 before every launch, so blocks can add their partial sums to it with atomicAdd.',
      'The inputs are whole numbers from 0 to 3, so every order of addition gives exactly the same float: the check is exact, and any difference is a bug — typically a missing __syncthreads() between the steps of a tree in shared memory.',
      '4 bytes are read per element; a good reduction reads them at close to the memory bandwidth.',
    ],
    hints: [
      'Within a block, add pairs in shared memory, halving the number of active threads at each step, with __syncthreads() after every step: a thread must not read a partial sum before its owner has written it.',
      'One atomicAdd per block, not per element: thousands of threads adding to one address wait for each other.',
      'Let each thread first add many elements on its own (a grid-stride loop), then combine a warp\'s 32 values with __shfl_down_sync — no shared memory and no barrier inside a warp.',
    ],
    sizeLabel: 'Elements (n)',
    work: '4 bytes per element read',
    kernels: {
      starter: { title: 'Starter: a tree in shared memory per block', note: 'One element per thread, log₂(blockDim.x) steps, one atomic per block.' },
      'warp-shuffle': { title: 'Reference: per-thread sums and warp shuffles', note: 'Each thread sums about 16 elements first; warps combine with shuffles.' },
    },
    builtins: { cublas: 'cuBLAS Sasum (sum of |x|)' },
  },
  transpose: {
    title: 'Matrix transpose',
    statement: [
      'Write out = inᵀ for a rows × cols matrix of floats stored row by row: out is cols × rows, and out[c·rows + r] = in[r·cols + c]. The exercise uses square N × N matrices.',
      'Every element is compared exactly. 8 bytes move per element; a transpose does no arithmetic at all, so it shows how well the kernel uses the memory system.',
    ],
    hints: [
      'A 2-D grid: blockIdx.x and threadIdx.x along the columns of in, blockIdx.y and threadIdx.y along its rows.',
      'Reading along a row is coalesced; writing the same elements along a column of out is not. Stage a 32×32 tile in shared memory, then write it out row by row.',
      'Pad the tile to 32×33 floats: otherwise the column reads of the tile all fall on the same shared-memory bank.',
    ],
    sizeLabel: 'Matrix order (N)',
    work: '8 bytes per element: in read, out written',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'Coalesced reads, scattered writes.' },
      'builtin-tiled': { title: 'Reference: the engine\'s tiled transpose', note: 'The int8 GEMM\'s transpose from shaders/cuda, its tile called on floats: 32×32 tiles in shared memory, padded.' },
    },
    builtins: { cublas: 'cuBLAS Sgeam (transpose)' },
  },
  sgemm: {
    title: 'SGEMM: C = A·B',
    statement: [
      'Write the matrix product C = A·B in single precision, all row-major: A is m × k, B is k × n, C is m × n. The exercise uses m = n = k = N.',
      'C is filled with NaN, then every element is checked for having been written, and the whole last row, the whole last column and 4096 random elements are compared with dot products in float64, to the tolerance of an fp32 sum of k terms.',
      '2·N³ floating-point operations: at N = 4,096, 137 GFLOP. On the chart: the reference kernels compiled at run time, the engine\'s tiled kernel, and cuBLAS.',
      'This is also Unit 10\'s second PyCUDA notebook: your kernel is launched from Python as well, through PyCUDA (SourceModule, pycuda.driver.Event) where it is installed, else through NVIDIA\'s cuda.core, verified the same way and timed beside GPU Lab\'s own launch.',
    ],
    hints: [
      'One thread per element of C: row from the y dimension, column from x, so that a warp reads consecutive elements of a row of B.',
      'In the naive kernel every multiply-add needs two loads from global memory. Tiles in shared memory let each loaded value serve a whole row or column of a tile.',
      'The fastest kernels also keep a small block of C in registers per thread (8×8 in the engine\'s tiled kernel): one pair of shared-memory reads then feeds many multiply-adds.',
    ],
    sizeLabel: 'Matrix order (N)',
    work: '2·N³ floating-point operations',
    kernels: {
      starter: { title: 'Starter: one thread per element of C', note: 'Two global loads per multiply-add.' },
      'shared-tiles': { title: 'Reference: 32×32 tiles in shared memory', note: 'Each loaded float is used 32 times.' },
      'builtin-tiled': { title: 'Reference: the engine\'s tiled kernel', note: 'The matmul labs\' kernel from shaders/cuda: 128×128 tiles, 8×8 per thread in registers, double-buffered.' },
    },
    builtins: { 'gemm-tiled': 'Built-in tiled kernel (engine, nvcc)', cublas: 'cuBLAS SGEMM' },
  },
  multiply: {
    title: 'Multiply elements: dest = a·b (Unit 10)',
    statement: [
      'The first kernel of Unit 10\'s PyCUDA notebook: dest[i] = a[i]·b[i] for every i < n, in single precision, with the output first in the argument list as the notebook writes it (its multiply_them), and the element count added so that any n is covered.',
      'dest is filled with NaN, then every element is compared with the product computed in float64 from the same random a and b in [−1, 1): the product of two floats is exact in float64, so only the kernel\'s own rounding is allowed.',
      'Your kernel is also launched from Python, as the course does it: through PyCUDA (SourceModule, timed with pycuda.driver.Event) where PyCUDA is installed, else through NVIDIA\'s cuda.core (Program, launch, events). Its output is verified the same way, and the two launch paths are compared on the same GPU.',
      '12 bytes move per element for one multiplication: this is a memory exercise. Compare your GB/s with the device peak and with the engine\'s own elementwise kernel.',
    ],
    hints: [
      'One thread per element: i = blockIdx.x · blockDim.x + threadIdx.x, and nothing to do when i ≥ n.',
      'The notebook launches one block of 400 threads for 400 elements; with millions of elements the grid must grow with n (grid=cover in the launch header does it), or the kernel must loop.',
      'Loading a and b four floats at a time (float4) halves nothing in bytes but cuts the memory instructions by four; the n mod 4 elements at the end need a scalar path.',
    ],
    sizeLabel: 'Elements (n)',
    work: '12 bytes per element: a and b read, dest written (4 bytes each)',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'The notebook\'s kernel with a bounds check.' },
      'grid-stride-float4': { title: 'Reference: grid-stride loop over float4', note: 'Fewer, wider memory accesses, and any grid covers any n.' },
    },
    builtins: { elementwise: 'Built-in elementwise multiply (engine, nvcc)' },
  },
  add: {
    title: 'Add elements: dest = a + b (Unit 10)',
    statement: [
      'The second kernel of Unit 10\'s PyCUDA notebook: dest[i] = a[i] + b[i] for every i < n, in single precision, with the same arguments as the multiplication (its add_them).',
      'dest is filled with NaN, then every element is compared with the sum computed in float64 from the same random a and b in [−1, 1): the sum of two floats is exact in float64, so only the kernel\'s own rounding is allowed.',
      'As with the multiplication, your kernel is also launched from Python (PyCUDA where installed, else cuda.core), verified, and timed beside the run-time compiled launch.',
      'An addition costs the same as a multiplication here: both wait on the same 12 bytes per element. Expect the same GB/s as the multiply exercise.',
    ],
    hints: [
      'The same indexing and bounds check as multiply_them; only the operator changes.',
      'If your sum is slower than your product, look at the launch: the arithmetic cannot be the difference.',
      'A grid-stride loop (i += gridDim.x · blockDim.x) lets you try grids far smaller than n / blockDim.x.',
    ],
    sizeLabel: 'Elements (n)',
    work: '12 bytes per element: a and b read, dest written (4 bytes each)',
    kernels: {
      starter: { title: 'Starter: one thread per element', note: 'The notebook\'s kernel with a + b and a bounds check.' },
      'grid-stride-float4': { title: 'Reference: grid-stride loop over float4', note: 'Fewer, wider memory accesses, and any grid covers any n.' },
    },
    builtins: { elementwise: 'Built-in elementwise add (engine, nvcc)' },
  },
};
