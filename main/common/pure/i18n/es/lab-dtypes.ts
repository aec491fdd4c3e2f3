// dtypes en español: hallazgos y series (las mismas claves que ../en/dtypes.ts) y la descripción del laboratorio.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { dtypes as en } from '../en/lab-dtypes.ts';

export const dtypes: TextOf<typeof en> = {
  series: { cpu: 'CPU', gpu: 'GPU', torch: 'PyTorch en la GPU' },
  findings: {
    footprint: 'Una matriz de {size}×{size} ocupa {list}.',
    footprintItem: '{bytes} en {dtype}',
    footprintList: '{item}, {rest}',
    cpuFp64: 'En la CPU, la GEMM en fp32 alcanza {ratio} la velocidad de la GEMM en fp64 ({fp32} frente a {fp64}){why}.',
    cpuSimd: ': aquí el producto está limitado por el cálculo (sus FLOP por byte superan el punto de equilibrio de esta CPU), y en un registro SIMD cabe el doble de números fp32',
    gpuFp32: 'GPU en fp32: {rate}{peak}; error relativo frente a float64: {error}. Es la referencia de los demás tipos: la GEMM en fp32 se ejecuta en las unidades fp32, no en los tensor cores.',
    gpuFp32Peak: ', el {share} de los {peak} que pueden dar sus unidades fp32',
    gpuFp32PeakDatasheet: ', el {share} de los {peak} que la hoja de datos de NVIDIA da para sus unidades fp32',
    gpuType: 'GPU en {dtype}: {rate}{peak}, {ratio} la velocidad de fp32; error relativo frente a float64: {error}.{tensorCores}',
    tensorPeak: ' (el {share} de los {peak} que pueden dar sus tensor cores con este tipo)',
    unitsPeak: ' (el {share} de los {peak} que pueden dar sus unidades {dtype})',
    tensorPeakDatasheet: ' (el {share} de los {peak} que la hoja de datos de NVIDIA da para sus tensor cores con este tipo)',
    unitsPeakDatasheet: ' (el {share} de los {peak} que la hoja de datos de NVIDIA da para sus unidades {dtype})',
    fp64TensorCores: ' Supera los {peak} que pueden dar las unidades fp64: cuBLAS ejecuta la GEMM en fp64 en los tensor cores de fp64 que tienen las GPU de centro de datos (A100, H100, H200).',
    webgpuTypes: 'En WebGPU los productos ejecutan el kernel WGSL con teselas de GPU Lab (shaders/wgsl/gemm.wgsl), no cuBLAS, solo en f32 y f16: WGSL no tiene aritmética en los demás tipos. Su producto en f16 guarda las matrices en f16 y suma en f32.',
    cpuError: 'GEMM en {dtype} en la CPU: error relativo {error} frente a float64 (tolerancia {tolerance}).',
    scientific: '{whole},{tenth}e{exponent}',
    errorExact: '0 (exacto)',
    errorUnknown: 'desconocido',
  },
};

export const dtypesDescriptor: DescriptorText = {
  title: 'Tipos de datos: memoria, velocidad y precisión',
  summary: 'fp64, fp32, tf32, fp16, bf16 e int8: lo que ocupa una matriz N×N, el rendimiento de la GEMM y el error frente a float64.',
  explanation: [
    'Cada vez que se reducen a la mitad los bytes por elemento, también se reducen a la mitad la memoria que necesita un tensor y el tiempo de moverlo, y en las GPU con tensor cores se multiplica la velocidad de cálculo. El precio es la precisión: fp16 conserva unas 3 cifras decimales y se desborda por encima de 65.504; bf16 mantiene el rango de fp32 con todavía menos cifras; tf32 ocupa en memoria lo mismo que fp32, pero se multiplica con una mantisa de 10 bits; int8 guarda enteros de −128 a 127.',
    'Aquí la GEMM en fp32 (CUBLAS_COMPUTE_32F) nunca usa los tensor cores: se ejecuta en las unidades fp32, y por eso sirve de referencia. fp64 depende de la GPU: las GPU de consumo tienen pocas unidades fp64 y lo ejecutan a 1/32 o 1/64 de la velocidad de fp32, mientras que las GPU de centro de datos (A100, H100, H200) tienen además tensor cores de fp64, así que en ellas la GEMM en fp64 puede igualar a la de fp32.',
    'Este laboratorio calcula cuánto ocupa una matriz N×N en cada tipo; después multiplica dos matrices así en cada tipo y compara una muestra de elementos del resultado con el mismo cálculo rehecho en float64 a partir de las mismas entradas almacenadas. Por eso el error que ves es el de la aritmética (el redondeo de productos, sumas y resultado), no el de convertir tus datos.',
  ],
  lookFor: [
    'Los TFLOP/s de cada tipo en la GPU: los tipos de los tensor cores (tf32, fp16, bf16, int8), muy por encima de fp32; fp64, muy por debajo en las GPU de consumo y cerca de fp32 en las de centro de datos con tensor cores de fp64.',
    'El error relativo de cada tipo: en torno a 1e-7 en fp32, de 1e-4 a 1e-3 en tf32 y fp16, en torno a 1e-3 en bf16 (8 bits de mantisa frente a los 11 de fp16) y 0 en int8 (las sumas de enteros son exactas).',
    'En la CPU, fp32 a más o menos el doble de velocidad que fp64.',
  ],
  parameters: {
    n: { label: 'Tamaño de matriz N', description: 'Matrices N×N para calcular lo que ocupan y para las GEMM.' },
    dtypes: { label: 'Tipos de datos', description: 'Los tipos que se miden.' },
  },
  presets: {
    'seed-003': { label: 'N = 4096, como en el artículo', description: 'La comparación de tipos del curso (el artículo «HPC con GPU», 3/22): todos los tipos en una GEMM de 4096×4096.' },
    quick: { label: 'Rápido: N = 1024', description: 'Una matriz más pequeña: segundos en la CPU de un portátil, pero demasiado pequeña para llenar una GPU grande.' },
  },
};
