// Registration of the "cuda/<op>" TimedOps, one function per op file.
#pragma once

namespace gpulab {

void RegisterCudaElementwise();     // ops_elementwise.cu: add, mul, exp, empty
void RegisterCudaVectorFunction();  // ops_vector_function.cu: vector-function
void RegisterCudaSgemm();           // ops_sgemm.cu: sgemm-naive, sgemm-tiled
void RegisterCudaGemm();            // ops_gemm.cu: gemm (cuBLAS)
void RegisterCudaBlas1();           // ops_blas1.cu: blas1 (cuBLAS saxpy, sum, transpose)
void RegisterCudaCopy();            // ops_copy.cu: copy

}  // namespace gpulab
