{
  "variables": {
    "with_cuda%": 0,
    "cuda_home%": "/usr/local/cuda",
    "cuda_lib_dir%": ""
  },
  "targets": [
    {
      "target_name": "gpu_lab",
      "sources": [
        "addon.cc",
        "src/errors.cc",
        "src/storage.cc",
        "src/thread_pool.cc",
        "src/timed_op.cc",
        "src/gemm_shape.cc",
        "src/buffer.cc",
        "src/benchmark.cc",
        "src/cpu_info.cc",
        "src/build_info.cc",
        "cpu/blas.cc",
        "cpu/elementwise.cc",
        "cpu/vector_function.cc",
        "cpu/gemm.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "."],
      "defines": ["NAPI_VERSION=9", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++20"],
      "cflags": ["-O3", "-fno-math-errno", "-fno-trapping-math", "-Wall", "-Wextra", "-Wno-unused-parameter"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O3"],
      "libraries": ["-ldl", "-lpthread"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "OTHER_CFLAGS": ["-O3"]
      },
      "msvs_settings": {"VCCLCompilerTool": {"ExceptionHandling": 1}},
      "conditions": [
        ["with_cuda==1", {
          "defines": ["GPU_LAB_WITH_CUDA"],
          "include_dirs": ["<(cuda_home)/include"],
          "sources": [],
          "libraries": ["-L<(cuda_lib_dir)", "-lgpulab_cuda", "-L<(cuda_home)/lib64", "-lcudart_static", "-lrt"]
        }]
      ]
    }
  ]
}
