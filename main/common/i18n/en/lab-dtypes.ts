// dtypes's findings and series in English (the descriptor's words are in ../../dtypes.ts).
export const dtypes = {
  series: { cpu: 'CPU', gpu: 'GPU' },
  findings: {
    // The footprint list: one item per type, joined by footprintList from the last.
    footprint: 'One {size}×{size} matrix takes {list}.',
    footprintItem: '{bytes} in {dtype}',
    footprintList: '{item}, {rest}',
    cpuFp64: 'On the CPU, fp32 GEMM runs {ratio} as fast as fp64 ({fp32} against {fp64}){why}.',
    cpuSimd: ': a SIMD register holds twice as many fp32 numbers',
    gpuFp32: 'GPU fp32: {rate}{peak}, relative error {error} against float64. The yardstick for the other types: fp32 GEMM runs on the fp32 units, not the tensor cores.',
    gpuFp32Peak: ', {share} of the {peak} its fp32 units can do',
    gpuType: "GPU {dtype}: {rate}, {ratio} fp32's speed, relative error {error} against float64.{tensorCores}",
    fp64TensorCores: ' It is faster than the {peak} the fp64 units can do: cuBLAS runs fp64 GEMM on the fp64 tensor cores that data-centre GPUs (A100, H100, H200) have.',
    cpuError: 'CPU {dtype} GEMM: relative error {error} against float64 (tolerance {tolerance}).',
    // A relative error as JavaScript's toExponential(1) writes it ("2.5e-4"), its decimal separator the language's.
    scientific: '{whole}.{tenth}e{exponent}',
    errorExact: '0 (exact)',
    errorUnknown: 'unknown',
  },
} as const;
