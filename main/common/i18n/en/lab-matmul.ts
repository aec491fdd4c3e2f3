// matmul's findings and series in English (the descriptor's words are in ../../matmul.ts).
export const matmul = {
  series: {
    'cpu-blas': 'CPU BLAS',
    'gpu-transfers': 'GPU cuBLAS with transfers',
    'gpu-cublas': 'GPU cuBLAS resident',
    'gpu-tiled': 'GPU tiled kernel',
    'gpu-naive': 'GPU naive kernel',
  },
  findings: {
    cpuRate: 'The CPU ({library}, {threads} threads) multiplies the matrices in {time}: {rate}.',
    speedup: "{series}: {time}, {ratio} the CPU's speed ({rate}{peak}).",
    peakShare: ", {share} of the GPU's fp32 peak",
    transferShare: 'Transfers are {share} of the end-to-end GPU time ({withCopies} with copies, {resident} without){copies}.',
    copies: ': {time} to move A and B to the GPU and C back, {size}B at {rate} from pageable host memory (see the transfer lab)',
    tiling:
      'The tiled kernel ({tiled}) is {ratio} faster than the naive one ({naive}): each value it fetches from global memory serves 128 multiply-adds instead of one, and each value it reads from shared memory serves 8.',
    // cuBLAS against the tiled kernel, by how far apart they are; sameUnits is the clause all three share.
    tiledFaster: 'The tiled kernel is {ratio} faster than cuBLAS here ({cublas} against {tiled}): {sameUnits}, so a well-tiled kernel can match the library at some sizes.',
    cublasClose:
      "cuBLAS is only {ratio} faster than the tiled kernel ({cublas} against {tiled}): the tiled kernel already does what matters most, shared-memory tiles and 8×8 outputs per thread in registers, and {sameUnits}. The rest is cuBLAS's tile shapes and pipelining tuned for this GPU.",
    cublasFaster: 'cuBLAS is {ratio} faster than the tiled kernel ({cublas} against {tiled}): register blocking, tile shapes and pipelining tuned for this GPU; {sameUnits}.',
    sameUnits: 'both run on the same fp32 FMA units (fp32 GEMM uses no tensor cores; tf32, fp16, bf16 and int8 do, see the dtypes lab)',
  },
} as const;
