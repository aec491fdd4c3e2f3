// text-to-image en español: hallazgos, series y puntos (las mismas claves que ../en/lab-text-to-image.ts) y la
// descripción del laboratorio. Cada página que lo muestra dice lo que es: pesos aleatorios, ninguna imagen producida,
// solo la aritmética de la red cronometrada.
import type { DescriptorText, TextOf } from '../lab-text-types.ts';
import type { textToImage as en } from '../en/lab-text-to-image.ts';

export const textToImage: TextOf<typeof en> = {
  series: {
    'gpu-fp32': 'Paso de la U-Net en GPU, fp32',
    'gpu-fp16': 'Paso de la U-Net en GPU, fp16',
    'cpu-fp32': 'Paso de la U-Net en CPU, fp32',
    'cpu-fp16': 'Paso de la U-Net en CPU, fp16',
    'gpu-text-fp32': 'Codificador de texto en GPU, fp32',
    'gpu-text-fp16': 'Codificador de texto en GPU, fp16',
    'cpu-text-fp32': 'Codificador de texto en CPU, fp32',
    'cpu-text-fp16': 'Codificador de texto en CPU, fp16',
  },
  point: {
    step: '{series}, lote de {batch}',
    text: '{series}, una imagen',
  },
  findings: {
    imageFaster:
      'Una imagen de {steps} pasos con un lote de {batch} tarda {gpu} en la GPU ({gpuType}) frente a {cpu} en la CPU (fp32): la GPU es {ratio} más rápida (entre {low} y {high}), {gpuStep} frente a {cpuStep} por paso de eliminación de ruido{text}.',
    imageSlower:
      'Una imagen de {steps} pasos con un lote de {batch} tarda {gpu} en la GPU ({gpuType}) frente a {cpu} en la CPU (fp32): la GPU es {ratio} más lenta (entre {low} y {high}), {gpuStep} frente a {cpuStep} por paso de eliminación de ruido{text}.',
    imageLevel:
      'Una imagen de {steps} pasos con un lote de {batch} tarda {gpu} en la GPU ({gpuType}) frente a {cpu} en la CPU (fp32): con esta precisión no se pueden distinguir (el cociente está entre {low} y {high}){text}.',
    textIncluded: ', con el codificador de texto contado una vez por imagen',
    textMissing: '; el codificador de texto no se midió en los dos lados y no se cuenta',
    why: 'Por qué: un paso con un lote de {batch} son {gflop} GFLOP de convoluciones y de productos de matrices de la atención (contados a partir de las capas de la U-Net, con el lote ejecutado dos veces por la guía), el mismo trabajo en los dos lados. La GPU sostuvo {gpuRate}{gpuPeak} y la CPU {cpuRate}{cpuPeak}: {rates} la velocidad, que es toda la aceleración, porque el trabajo es el mismo.',
    gpuPeak: ' ({share} de los {peak} que pueden hacer sus unidades aritméticas en este tipo)',
    cpuPeak: ' ({share} de los {peak} estimados para sus núcleos)',
    halfFaster: 'En la GPU, con un lote de {batch}, un paso en fp16 tarda {half} frente a {single} en fp32: {ratio} más rápido (entre {low} y {high}){memory}.',
    halfSlower: 'En la GPU, con un lote de {batch}, un paso en fp16 tarda {half} frente a {single} en fp32: {ratio} más lento (entre {low} y {high}){memory}.',
    halfLevel: 'En la GPU, con un lote de {batch}, un paso en fp16 tarda {half} frente a {single} en fp32: con esta precisión no se pueden distinguir (el cociente está entre {low} y {high}){memory}.',
    halfMemory: '; en su máximo ocupó {half} de memoria de la GPU frente a {single}',
    batchLess: 'En la GPU en {dtype}, un paso con un lote de {batch} tarda {step}: {perImage} por imagen frente a {one} con un lote de 1, {ratio} menos por imagen (entre {low} y {high}).',
    batchMore: 'En la GPU en {dtype}, un paso con un lote de {batch} tarda {step}: {perImage} por imagen frente a {one} con un lote de 1, {ratio} más por imagen (entre {low} y {high}).',
    batchLevel: 'En la GPU en {dtype}, un paso con un lote de {batch} tarda {step}: {perImage} por imagen frente a {one} con un lote de 1, lo mismo con esta precisión (el cociente está entre {low} y {high}).',
    memory: 'Memoria en su máximo: {list}.',
    memoryList: '{item}; {rest}',
    memoryDevice: '{point}, {bytes} de memoria de la GPU',
    memoryHost: '{point}, {bytes} residentes en el proceso de Python (el intérprete y los pesos incluidos)',
    check: 'Comprobado: un paso en la GPU en fp32 con un lote de 1 frente al mismo paso en la CPU en float64, con un error relativo de {error} (tolerancia {tolerance}).',
    checkFailed: 'El paso en fp32 de la GPU con un lote de 1 no coincidió con el paso en float64 de la CPU: error relativo de {error}, por encima de la tolerancia de {tolerance}.',
    errorUnknown: 'no es un número finito',
    scopeRandom:
      'Pesos aleatorios: no se produce ninguna imagen. Lo que se cronometra es solo la aritmética de la red: una U-Net con las formas de Stable Diffusion 1.5 ({params} parámetros) y el codificador de texto de CLIP, tal como los ejecuta un pipeline para hacer una imagen.',
    scopeCached:
      'Los pesos propios de Stable Diffusion 1.5, de la caché de Hugging Face de este equipo ({model}); tampoco así se produce ninguna imagen (no hay decodificador VAE): lo que se cronometra es solo la aritmética de la red.',
    scopeCachedMissing:
      'Se pidió un modelo de la caché y no se ejecutó ninguno: no se usaron pesos aleatorios en su lugar. Este laboratorio no produce ninguna imagen en ningún caso: cronometra solo la aritmética de la red ({params} parámetros).',
  },
};

export const textToImageDescriptor: DescriptorText = {
  title: 'De texto a imagen: un paso de difusión en la CPU y en la GPU',
  summary: 'La aritmética de Stable Diffusion 1.5 con pesos aleatorios (los pasos de eliminación de ruido de su U-Net y su codificador de texto) cronometrada en la CPU y en la GPU, en fp32 y en fp16, por lote, con la memoria que necesita cada uno. No se produce ninguna imagen.',
  explanation: [
    'El tercer cuaderno de la Unidad 10 pregunta cuánto más rápida es la GPU que la CPU para generar una imagen a partir de un texto. Descarga Stable Diffusion 1.5 y cronometra el pipeline. Aquí no se descarga nada: el laboratorio construye una red con las mismas formas y pesos aleatorios (la U-Net, con latentes de 4 × 64 × 64, bloques de 320, 640, 1280 y 1280 canales y atención cruzada a los estados de 77 × 768 del texto, y el codificador de texto de CLIP ViT-L/14) y cronometra su aritmética. Los pesos son aleatorios, así que no se produce ninguna imagen: lo que se mide es solo la aritmética de la red, que es en lo que se diferencian la GPU y la CPU.',
    'Un paso de eliminación de ruido ejecuta la U-Net dos veces sobre el lote, con el texto y con el texto vacío (guía sin clasificador), y después actualiza los latentes (DDIM). Una imagen son tantos pasos como diga el parámetro Pasos, repartidos entre las imágenes de un lote, y el codificador de texto una vez; no se construye el VAE que convertiría los latentes en píxeles. Cada muestra es un paso, cronometrado con el reloj del anfitrión tras sincronizar la GPU, como el cuaderno cronometra su pipeline.',
    'Se comprueba cada punto: la salida de un paso sobre entradas fijas frente a la misma calculada en la CPU en float64 con los mismos pesos, con un error relativo de 5·10⁻⁴ en fp32 (con TF32 desactivado) y de 2·10⁻² en fp16. La memoria es el máximo reservado en la GPU durante el punto o, en la CPU, el máximo de memoria residente del proceso de Python.',
    'La CPU de un portátil tarda segundos por paso: las series de la CPU se detienen en el lote y los tipos de cpuMaxBatch y cpuDtypes, y los puntos por encima se omiten con ese motivo. Donde Stable Diffusion 1.5 ya está en la caché de Hugging Face de este equipo, el parámetro Modelo puede usar sus propios pesos (nunca se descargan), y la ejecución dice qué modelo se ejecutó.',
  ],
  lookFor: [
    'El tiempo de una imagen en cada lado y la aceleración de la GPU con su intervalo.',
    'Las velocidades que hay detrás: los mismos GFLOP por paso en los dos lados, así que la aceleración es el cociente de las velocidades.',
    'fp16 frente a fp32 en la GPU, en tiempo y en memoria.',
    'El tiempo por imagen cuando crece el lote: un lote comparte cada pasada por los pesos.',
  ],
  parameters: {
    steps: { label: 'Pasos de eliminación de ruido', description: 'Los pasos de una imagen: su tiempo son estos pasos de la U-Net (repartidos entre las imágenes del lote) y el codificador de texto una vez. Los pipelines de SD 1.5 dan entre 25 y 50; el tiempo de un paso, que es lo que se mide, no depende de ello.' },
    batches: { label: 'Lotes', description: 'Las imágenes que se generan a la vez; cada lote es un punto de cada serie.' },
    dtypes: { label: 'Tipos de datos', description: 'fp32 (sin TF32, como lo exige la comprobación) y fp16.' },
    cpuMaxBatch: { label: 'Lote máximo de la CPU', description: 'Las series de la CPU se detienen en este lote (0: se deja fuera la CPU); los lotes mayores se omiten, diciéndolo. Un paso con un lote de 1 tarda segundos en la CPU de un portátil.' },
    cpuDtypes: { label: 'Tipos de datos de la CPU', description: 'Los tipos que se cronometran en la CPU; los demás se omiten, diciéndolo. Muchas CPU no tienen aritmética propia de media precisión.' },
    model: { label: 'Modelo', description: 'random: pesos aleatorios con las formas de SD 1.5. cached: los pesos propios de SD 1.5 donde diffusers los encuentra en la caché de Hugging Face de este equipo (nunca se descargan; los puntos fallan con el motivo si no están).' },
  },
  presets: {
    'seed-004': { label: 'Unidad 10 (pocos pasos, lotes de 1 y 4)', description: 'La comparación del cuaderno, a la medida de un portátil: la CPU con un lote de 1 en fp32 y la GPU con lotes de 1 y 4 en fp32 y fp16.' },
    'gpu-only': { label: 'Solo la GPU, lotes de 1 a 8', description: 'Las series de la GPU solas, con el lote doblándose hasta 8: cómo cambia el tiempo por imagen con el lote.' },
    'cached-model': { label: 'El modelo de la caché', description: 'Los pesos propios de SD 1.5 de la caché de Hugging Face de este equipo, donde diffusers los encuentra; no se descarga nada.' },
  },
};
