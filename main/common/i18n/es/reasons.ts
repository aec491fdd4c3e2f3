import type { TextOf } from '../translate.ts';
import type { reasons as en } from '../en/reasons.ts';

// Por qué un punto no tiene tiempo: su serie de GPU se omitió, o la ejecución se detuvo antes.
export const reasons: TextOf<typeof en> = {
  peersNotAsked: 'no se consultó el Python del curso',
  noPeers: 'no hay Python del curso: {detail}',
  peerNotProbed: 'no se comprobó {library}',
  peerMissing: '{library} para {interpreter}: {detail}',
  peerNotInstalled: '{library} no está instalado para {interpreter} ({detail})',
  peerImportFailed: '{interpreter} no puede importar {library}: {detail}',
  peerNoCuda: '{library} {version} no tiene CUDA que funcione aquí',
  peerNoCudaWhy: '{library} {version} no tiene CUDA que funcione aquí: {detail}',
  int8Shape: 'torch._int_mm solo multiplica matrices de más de 16 filas cuyas columnas sean múltiplo de 8, y N = {n} no lo es',
  noDriver: 'no hay ningún dispositivo CUDA: no hay ningún controlador de NVIDIA instalado (no se encontró {library})',
  noneFound: 'no hay ningún dispositivo CUDA: el controlador no encontró ninguno',
  cudaError: 'no hay ningún dispositivo CUDA: el runtime de CUDA respondió {code}',
  noNvcc: 'GPU Lab se compiló sin CUDA: no se encontró nvcc',
  noCuda: 'no hay ningún dispositivo CUDA: {detail}',
  builtWithoutCuda: 'GPU Lab se compiló sin CUDA: {detail}',
  cpuOnly: 'la ejecución se lanzó solo en la CPU (dispositivo «cpu»)',
  notADevice: '{device} no es un dispositivo de esta máquina (tiene {devices})',
  cancelled: 'la ejecución se canceló antes de este punto',
  failedBefore: 'la ejecución falló antes de este punto: {code}',
  libraryNotOpened: 'no se pudo abrir ninguna de {tried}',
  libraryNotOpenedOthers: 'no se pudo abrir ninguna de {tried} desde la ruta del cargador ni desde {count} carpeta más | no se pudo abrir ninguna de {tried} desde la ruta del cargador ni desde otras {count} carpetas',
  libraryNoCudaBuild: 'GPU Lab se compiló sin CUDA',
  nvrtcMissing: 'no se encontró NVRTC, el compilador de CUDA en tiempo de ejecución: {why}',
  cpuPeakNoFma: 'las unidades FMA de esta CPU ({vendor}, familia {family}, modelo {model}) no están en la tabla',
  cpuPeakNoClock: 'ni cpufreq ni el nombre del modelo dan el reloj máximo',
  cpuPeakNoCores: 'no se sabe cuántos núcleos tiene',
  cpuPeakNoCpuinfo: 'no se puede leer /proc/cpuinfo',
};
