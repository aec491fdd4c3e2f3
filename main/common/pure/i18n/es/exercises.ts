// Los ejercicios en español: títulos, enunciados, pistas y lo que es cada kernel que acompaña a un ejercicio (las
// mismas claves que ./en.ts). «Tile» se dice «tesela»; «grid-stride loop», «bucle con salto de grid»; «engine», «motor».
import type { PlaygroundText } from '../en/exercises.ts';

export const exercises: PlaygroundText = {
  'polynomial-fp32': {
    title: 'Polinomio z = a·x² + b·y + c (fp32)',
    statement: [
      'Escribe un kernel que calcule z[i] = a·x[i]² + b·y[i] + c para todo i < n, en precisión simple. Es la función vectorial de los laboratorios, tal como la escribe un estudiante en PyCUDA con un SourceModule.',
      'El kernel se comprueba frente a un cálculo en float64 en la CPU sobre valores aleatorios nuevos de x e y en [−1, 1), con a = 3,5, b = 2,8 y c = 10, y con z lleno de NaN de antemano, de modo que se detecta cualquier elemento que el kernel no llegue a escribir. Solo se cronometra un kernel verificado.',
      'Por cada elemento se mueven tres floats, 12 bytes, para tres multiplicaciones-suma: el kernel no puede ir más rápido de lo que le deja la memoria. Compara tus GB/s con el pico del dispositivo.',
    ],
    hints: [
      'Un hilo por elemento: i = blockIdx.x · blockDim.x + threadIdx.x, y sal con return cuando i ≥ n: el último bloque suele pasarse del final.',
      'Con el grid en automático, el grid tiene ⌈n / blockDim.x⌉ bloques. Con un grid propio, un bucle con salto de grid (i += gridDim.x · blockDim.x) cubre cualquier n.',
      'Cargar cuatro floats de una vez (float4) divide entre cuatro el número de instrucciones de memoria; cudaMalloc alinea los búferes a 256 bytes, pero los n mod 4 elementos del final necesitan un camino escalar.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '12 bytes por elemento: se leen x e y y se escribe z (4 bytes cada uno)',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'La versión sencilla: correcta y ya cerca del ancho de banda de la memoria.' },
      float4: { title: 'Referencia: lecturas y escrituras con float4', note: 'Cuatro elementos por hilo en accesos de 16 bytes, con un resto escalar al final.' },
    },
    builtins: {},
  },
  'polynomial-fp64': {
    title: 'Polinomio z = a·x² + b·y + c (fp64)',
    statement: [
      'El mismo polinomio en doble precisión: z[i] = a·x[i]² + b·y[i] + c para todo i < n, con a = 3,5, b = 2,8 y c = 10; es el laboratorio de la función vectorial con 5 M de elementos.',
      'El resultado se compara con el de la CPU en float64 con un error relativo de 10⁻¹², que solo deja margen para las multiplicaciones-suma fusionadas (FMA) que usa el compilador de la GPU.',
      'Por cada elemento se mueven 24 bytes. En la gráfica, junto a tu kernel: el kernel fusionado del laboratorio, compilado en tiempo de ejecución, y las versiones fusionada y sin fusionar (tres pasadas) del propio motor.',
    ],
    hints: [
      'La misma indexación que en el ejercicio en fp32; todos los float pasan a ser double, también a, b y c.',
      'La versión sin fusionar lee y escribe un array temporal tres veces: 56 bytes por elemento en lugar de 24. Toda la ganancia está en la fusión.',
      'double2 mueve dos doubles en un solo acceso de 16 bytes: un hilo por pareja, y un hilo más si n es impar.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '24 bytes por elemento: se leen x e y y se escribe z (8 bytes cada uno)',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'La versión sencilla, en doble precisión.' },
      'builtin-fused': { title: 'Referencia: el kernel fusionado del laboratorio (double2)', note: 'El kernel del laboratorio de la función vectorial, tomado de shaders/cuda y compilado aquí con NVRTC.' },
    },
    builtins: { 'vector-function-fused': 'Kernel fusionado integrado (motor)', 'vector-function-unfused': 'Integrado sin fusionar, tres pasadas (motor)' },
  },
  saxpy: {
    title: 'SAXPY: la operación out = a·x + y',
    statement: [
      'Escribe el clásico del nivel 1 de BLAS: out[i] = a·x[i] + y[i] para todo i < n, en precisión simple, con a = 2,5.',
      'La salida se llena de NaN y después se comprueba elemento a elemento frente a float64 en la CPU. Por cada elemento se mueven 12 bytes para dos operaciones de coma flotante, así que es un ejercicio de ancho de banda.',
    ],
    hints: [
      'Protege el último bloque: if (i < n).',
      'Un bucle con salto de grid permite que un grid de unos pocos bloques por multiprocesador cubra cualquier n, y te deja probar grids más pequeños que n / blockDim.x.',
      'Prueba bloques de 64, 128, 256 y 1024 hilos y observa la ocupación y los GB/s: a partir de cierto punto, más hilos por bloque no cambian nada en un kernel limitado por la memoria.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '12 bytes por elemento: se leen x e y y se escribe out',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'Correcto y sencillo.' },
      'grid-stride-float4': { title: 'Referencia: bucle con salto de grid sobre float4', note: 'Menos accesos a memoria, y más anchos, y cualquier grid cubre cualquier n.' },
    },
    builtins: { cublas: 'Saxpy de cuBLAS (sobre la propia y: y ← a·x + y)' },
  },
  reduction: {
    title: 'Reducción: la suma de n floats',
    statement: [
      'Escribe un kernel que sume los n elementos de x en *total. *total se pone a 0 antes de cada lanzamiento, así que los bloques pueden acumular en él sus sumas parciales con atomicAdd.',
      'Las entradas son enteros de 0 a 3, así que cualquier orden de suma da exactamente el mismo float: la comprobación es exacta, y cualquier diferencia es un error; lo típico es que falte un __syncthreads() entre los pasos de un árbol en memoria compartida.',
      'Se leen 4 bytes por elemento; una buena reducción los lee a una velocidad cercana al ancho de banda de la memoria.',
    ],
    hints: [
      'Dentro de un bloque, suma por parejas en memoria compartida, reduciendo a la mitad los hilos activos en cada paso, con un __syncthreads() después de cada paso: un hilo no debe leer una suma parcial antes de que el hilo que la calcula la haya escrito.',
      'Un atomicAdd por bloque, no por elemento: miles de hilos sumando sobre la misma dirección tienen que esperarse unos a otros.',
      'Haz que cada hilo sume primero muchos elementos por su cuenta (con un bucle con salto de grid) y combina después los 32 valores de un warp con __shfl_down_sync: dentro de un warp no hacen falta ni memoria compartida ni barreras.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '4 bytes leídos por elemento',
    kernels: {
      starter: { title: 'Punto de partida: un árbol en memoria compartida por bloque', note: 'Un elemento por hilo, log₂(blockDim.x) pasos y una operación atómica por bloque.' },
      'warp-shuffle': { title: 'Referencia: sumas por hilo y shuffles de warp', note: 'Cada hilo suma primero unos 16 elementos; los warps combinan sus valores con shuffles.' },
    },
    builtins: { cublas: 'Sasum de cuBLAS (suma de |x|)' },
  },
  transpose: {
    title: 'Traspuesta de una matriz',
    statement: [
      'Escribe out = inᵀ para una matriz de rows × cols floats almacenada por filas: out es de cols × rows, y out[c·rows + r] = in[r·cols + c]. El ejercicio usa matrices cuadradas de N × N.',
      'Cada elemento se compara de forma exacta. Por cada elemento se mueven 8 bytes; una traspuesta no hace ninguna operación aritmética, así que muestra lo bien que aprovecha el kernel el sistema de memoria.',
    ],
    hints: [
      'Un grid 2-D: blockIdx.x y threadIdx.x recorren las columnas de in; blockIdx.y y threadIdx.y, sus filas.',
      'Leer a lo largo de una fila es un acceso coalescido; escribir esos mismos elementos a lo largo de una columna de out, no. Pasa una tesela de 32×32 por la memoria compartida y escríbela después fila a fila.',
      'Rellena la tesela hasta 32×33 floats: si no, las lecturas por columnas de la tesela caen todas en el mismo banco de la memoria compartida.',
    ],
    sizeLabel: 'Orden de la matriz (N)',
    work: '8 bytes por elemento: se lee in y se escribe out',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'Lecturas coalescidas, escrituras dispersas.' },
      'builtin-tiled': {
        title: 'Referencia: la traspuesta con teselas del motor',
        note: 'La traspuesta de la GEMM en int8, tomada de shaders/cuda, con su tesela aplicada a floats: teselas de 32×32 en memoria compartida, con relleno.',
      },
    },
    builtins: { cublas: 'Sgeam de cuBLAS (traspuesta)' },
  },
  sgemm: {
    title: 'SGEMM: el producto C = A·B',
    statement: [
      'Escribe el producto de matrices C = A·B en precisión simple, todas almacenadas por filas: A es de m × k, B de k × n y C de m × n. El ejercicio usa m = n = k = N.',
      'C se llena de NaN; después se comprueba que se ha escrito cada elemento, y la última fila completa, la última columna completa y 4096 elementos al azar se comparan con productos escalares calculados en float64, con la tolerancia de una suma de k términos en fp32.',
      '2·N³ operaciones de coma flotante: con N = 4096, 137 GFLOP. En la gráfica: los kernels de referencia compilados en tiempo de ejecución, el kernel con teselas del motor y cuBLAS.',
      'Es también el segundo cuaderno de PyCUDA de la Unidad 10: tu kernel se lanza además desde Python, con PyCUDA (SourceModule, pycuda.driver.Event) donde está instalado y, si no, con cuda.core de NVIDIA; se verifica igual y se cronometra junto al lanzamiento del propio GPU Lab.',
    ],
    hints: [
      'Un hilo por elemento de C: la fila sale de la dimensión y, y la columna, de la x, para que un warp lea elementos consecutivos de una fila de B.',
      'En el kernel ingenuo, cada multiplicación-suma necesita dos lecturas de la memoria global. Con teselas en memoria compartida, cada valor cargado sirve para toda una fila o columna de una tesela.',
      'Los kernels más rápidos guardan además en registros un pequeño bloque de C por hilo (8×8 en el kernel con teselas del motor): así, un par de lecturas de la memoria compartida alimenta muchas multiplicaciones-suma.',
    ],
    sizeLabel: 'Orden de la matriz (N)',
    work: '2·N³ operaciones de coma flotante',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento de C', note: 'Dos lecturas de memoria global por cada multiplicación-suma.' },
      'shared-tiles': { title: 'Referencia: teselas de 32×32 en memoria compartida', note: 'Cada float cargado se usa 32 veces.' },
      'builtin-tiled': {
        title: 'Referencia: el kernel con teselas del motor',
        note: 'El kernel de los laboratorios de producto de matrices, tomado de shaders/cuda: teselas de 128×128, 8×8 resultados por hilo en registros y doble búfer.',
      },
    },
    builtins: { 'gemm-tiled': 'Kernel con teselas integrado (motor, nvcc)', cublas: 'SGEMM de cuBLAS' },
  },
  multiply: {
    title: 'Multiplicar elementos: dest = a·b (Unidad 10)',
    statement: [
      'El primer kernel del cuaderno de PyCUDA de la Unidad 10: dest[i] = a[i]·b[i] para todo i < n, en precisión simple, con la salida en primer lugar entre los argumentos, como la escribe el cuaderno (su multiply_them), y con el número de elementos añadido para cubrir cualquier n.',
      'dest se llena de NaN; después cada elemento se compara con el producto calculado en float64 a partir de los mismos a y b aleatorios en [−1, 1): el producto de dos floats es exacto en float64, así que solo se admite el redondeo del propio kernel.',
      'Tu kernel también se lanza desde Python, como en el curso: con PyCUDA (SourceModule, cronometrado con pycuda.driver.Event) donde PyCUDA está instalado y, si no, con cuda.core de NVIDIA (Program, launch y eventos). Su salida se verifica igual, y las dos vías de lanzamiento se comparan en la misma GPU.',
      'Por cada elemento se mueven 12 bytes para una sola multiplicación: es un ejercicio de memoria. Compara tus GB/s con el pico del dispositivo y con el kernel elemento a elemento del propio motor.',
    ],
    hints: [
      'Un hilo por elemento: i = blockIdx.x · blockDim.x + threadIdx.x, y nada que hacer cuando i ≥ n.',
      'El cuaderno lanza un bloque de 400 hilos para 400 elementos; con millones de elementos, el grid tiene que crecer con n (grid=cover en la cabecera de lanzamiento lo hace) o el kernel tiene que recorrer un bucle.',
      'Leer a y b de cuatro en cuatro floats (float4) no ahorra bytes, pero divide entre cuatro las instrucciones de memoria; los n mod 4 elementos del final necesitan un camino escalar.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '12 bytes por elemento: se leen a y b y se escribe dest (4 bytes cada uno)',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'El kernel del cuaderno con la comprobación del límite.' },
      'grid-stride-float4': { title: 'Referencia: bucle con salto de grid sobre float4', note: 'Menos accesos a memoria y más anchos, y cualquier grid cubre cualquier n.' },
    },
    builtins: { elementwise: 'Multiplicación elemento a elemento integrada (motor, nvcc)' },
  },
  add: {
    title: 'Sumar elementos: dest = a + b (Unidad 10)',
    statement: [
      'El segundo kernel del cuaderno de PyCUDA de la Unidad 10: dest[i] = a[i] + b[i] para todo i < n, en precisión simple, con los mismos argumentos que la multiplicación (su add_them).',
      'dest se llena de NaN; después cada elemento se compara con la suma calculada en float64 a partir de los mismos a y b aleatorios en [−1, 1): la suma de dos floats es exacta en float64, así que solo se admite el redondeo del propio kernel.',
      'Como con la multiplicación, tu kernel también se lanza desde Python (PyCUDA donde esté instalado y, si no, cuda.core), se verifica y se cronometra junto al lanzamiento compilado en tiempo de ejecución.',
      'Aquí una suma cuesta lo mismo que una multiplicación: las dos esperan a los mismos 12 bytes por elemento. Cabe esperar los mismos GB/s que en el ejercicio de multiplicar.',
    ],
    hints: [
      'La misma indexación y la misma comprobación del límite que en multiply_them; solo cambia el operador.',
      'Si tu suma va más lenta que tu producto, mira el lanzamiento: la aritmética no puede ser la diferencia.',
      'Un bucle con salto de grid (i += gridDim.x · blockDim.x) te deja probar grids mucho menores que n / blockDim.x.',
    ],
    sizeLabel: 'Elementos (n)',
    work: '12 bytes por elemento: se leen a y b y se escribe dest (4 bytes cada uno)',
    kernels: {
      starter: { title: 'Punto de partida: un hilo por elemento', note: 'El kernel del cuaderno con a + b y la comprobación del límite.' },
      'grid-stride-float4': { title: 'Referencia: bucle con salto de grid sobre float4', note: 'Menos accesos a memoria y más anchos, y cualquier grid cubre cualquier n.' },
    },
    builtins: { elementwise: 'Suma elemento a elemento integrada (motor, nvcc)' },
  },
};
