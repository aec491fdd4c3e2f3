// matmul-breakeven en español: hallazgos y series (las mismas claves que ../en/matmul-breakeven.ts) y la descripción.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { matmulBreakeven as en } from '../en/lab-matmul-breakeven.ts';

export const matmulBreakeven: TextOf<typeof en> = {
  series: {
    cpu: 'BLAS en la CPU',
    'gpu-transfers': 'GPU con transferencias',
    'gpu-resident': 'GPU con datos residentes',
    'torch-cpu': 'PyTorch en la CPU',
    'torch-transfers': 'GPU de PyTorch con .to() y .cpu()',
    'torch-resident': 'GPU de PyTorch con datos residentes',
  },
  findings: {
    cpuRate: 'Como máximo, {cpu} alcanza {rate} (N = {n}, {time}).',
    overtakes: 'La {series} supera a {cpu} a partir de N ≈ {size}.{beside}',
    overtakesRange: 'La {series} supera a {cpu} a partir de N ≈ {size} (en algún punto entre N = {low} y N = {high}, dentro de la incertidumbre de las medianas).{beside}',
    faster: 'La {series} es más rápida que {cpu} en todos los tamaños medidos, desde N = {n}.{beside}',
    level: 'La {series} empata con {cpu} en N = {n}{ratio} y es al menos igual de rápida en todos los tamaños mayores medidos: el punto de equilibrio está en el tamaño más pequeño o por debajo; añade tamaños menores para encontrarlo.{beside}',
    levelRatio: ' ({ratio} su velocidad, dentro de la dispersión de las muestras)',
    never: 'La {series} no llega a superar a {cpu} en esta máquina (como mucho {ratio}, en N = {n}).{beside}',
    besideBetween: ' Frente a {cpu}, a partir de N ≈ {size}.',
    besideBelow: ' Frente a {cpu}, ya en el tamaño más pequeño medido, N = {n}, según las medianas.',
    besideNever: ' Frente a {cpu}, en ningún tamaño medido (como mucho {ratio}, en N = {n}).',
    range: '{series}: {small} la velocidad de {cpu} en N = {smallest}, {large} en N = {largest}{best}.',
    rangeBest: '; como máximo {rate}, en N = {n}',
    torchOvertakes: 'En PyTorch (el código del cuaderno), la {series} supera a PyTorch en la CPU a partir de N ≈ {size}.',
    torchBelow: 'En PyTorch (el código del cuaderno), la {series} es al menos igual de rápida que PyTorch en la CPU (según las medianas) desde el tamaño más pequeño medido, N = {n}: su punto de equilibrio está en ese tamaño o por debajo.',
    webgpuKernel: 'En WebGPU las series de la GPU ejecutan el kernel WGSL con teselas de GPU Lab (shaders/wgsl/gemm.wgsl), no cuBLAS: WebGPU no tiene biblioteca del fabricante para productos de matrices.',
    torchNever: 'En PyTorch (el código del cuaderno), la {series} no llega a superar a PyTorch en la CPU en esta máquina (como mucho {ratio}, en N = {n}).',
  },
};

export const matmulBreakevenDescriptor: DescriptorText = {
  title: 'Punto de equilibrio del producto de matrices: ¿a partir de qué N gana la GPU?',
  summary: 'N = 50 … 5000 en float32: BLAS en la CPU frente a la GPU contando las transferencias; el tiempo según N y el tamaño a partir del cual la GPU pasa por delante.',
  explanation: [
    'El trabajo de un producto de matrices crece como N³, mientras que los datos que hay que copiar crecen como N². Con matrices pequeñas mandan los costes fijos: lanzar un kernel, copiar por PCIe, sincronizar; cada uno cuesta microsegundos, y la CPU termina un producto de 100×100 en más o menos ese tiempo. Al crecer N pesa más la aritmética, y ganan los miles de núcleos de la GPU.',
    'El artículo del curso lo midió en una RTX 3080: con N = 100 la CPU era 5 veces más rápida (0,08 ms frente a 0,42 ms con transferencias), con N = 500 quedaban igualadas, con N = 1000 la GPU era 4,8 veces más rápida y con N = 5000, 23 veces. Este laboratorio mide la misma curva en tu máquina e interpola el cruce sobre ejes logarítmicos.',
  ],
  lookFor: [
    'El N a partir del cual la GPU con transferencias supera a la CPU.',
    'Las tasas de la tabla, de la CPU y de la GPU con los datos residentes, según N: la CPU se estanca pronto; la GPU sigue subiendo hasta saturarse. La GPU con transferencias no tiene tasa: su tiempo es sobre todo el del bus.',
    'La distancia entre «con transferencias» y «datos residentes»: donde el trabajo (N³) supera a las copias (N²), se reduce; con N pequeños, donde el lanzamiento y la latencia marcan el tiempo residente, puede crecer. Mira cuál de las dos muestran tus tamaños.',
  ],
  parameters: {
    sizes: { label: 'Tamaños de matriz N', description: 'El N de cada producto N×N en float32.' },
  },
  presets: {
    default: { label: 'N = 50 … 5000', description: 'Los tamaños del artículo, con 50, 200 y 2000 añadidos para que cada punto de equilibrio quede entre dos tamaños medidos.' },
    'seed-003': { label: 'Los tamaños del artículo (HPC con GPU 3/22)', description: 'N = 100, 500, 1000 y 5000, como los enumera el ejercicio.' },
    small: { label: 'Matrices pequeñas, N = 16 … 512', description: 'Donde deciden la latencia del lanzamiento y de la copia: la GPU puede perder en todos los tamaños.' },
  },
};
