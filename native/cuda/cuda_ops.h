// Registration of the "cuda/<op>" TimedOps (or "cuda/<op>/<variant>" where a variant has an op file of its own), one
// function per op file; native/cuda/cuda_module.cu calls each. A new CUDA op adds its line here.
#pragma once

namespace gpulab {

void RegisterCudaElementwise();     // ops_elementwise.cu: add, mul, exp, empty
void RegisterCudaVectorFunction();  // ops_vector_function.cu: vector-function
void RegisterCudaSgemm();           // ops_sgemm.cu: gemm, variants naive and tiled
void RegisterCudaGemm();            // ops_gemm.cu: gemm, variant cublas
void RegisterCudaBlas1();           // ops_blas1.cu: blas1 (cuBLAS saxpy, sum, transpose)
void RegisterCudaCopy();            // ops_copy.cu: copy

}  // namespace gpulab
