// `gpu-lab devices` on the H100's recorded report, in Spanish and English: the labels down the left aligned in each
// language, the arithmetic of the peaks with the locale's decimal separator (compute capability kept as "9.0"), and
// on the same machine with the driver alone, the missing libraries with where they were looked for and how to get them.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { formatDevices } from '../../../main/cli/devices.ts';
import { cliText } from '../../../main/cli/cli-text.ts';
import type { DeviceReport, LibraryStatus } from '../../../main/common/device-report.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';

const recorded = JSON.parse(readFileSync(new URL('../../fixtures/devices-h100.json', import.meta.url), 'utf8')) as DeviceReport['list'] & Pick<DeviceReport, 'cuda' | 'telemetry'>;
const report: DeviceReport = { list: { devices: recorded.devices, cudaReason: recorded.cudaReason, blas: recorded.blas }, cuda: recorded.cuda, telemetry: recorded.telemetry };

const devices = (locale: Locale): string => formatDevices(report, { locale, t: cliText(locale) });

describe('gpu-lab devices', () => {
  it('marks the CPU\'s estimated peaks ≈ and writes their arithmetic, or says why there are none', () => {
    const [cpu, ...gpus] = report.list.devices;
    if (!cpu) throw new Error('no CPU in the fixture');
    const withCpu = (c: typeof cpu): string => formatDevices({ ...report, list: { ...report.list, devices: [c, ...gpus] } }, { locale: 'en', t: cliText('en') });
    const estimated = withCpu({ ...cpu, peakGflopsFp32: 3584, peakGflopsFp64: 1792, details: { ...cpu.details, peakSource: 'estimate', peakFp32Formula: 'estimate: 16 cores × 3500 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units (Intel Xeon Scalable) × 2 FLOP = 3584 GFLOP/s', peakFp64Formula: 'estimate: 1792 GFLOP/s' } });
    expect(estimated).toMatch(/^cpu\s.*≈ 3\.6 TFLOP\/s\s+≈ 1\.8 TFLOP\/s\s+-$/m);
    expect(estimated).toContain('  FP32 estimate: 16 cores × 3500 MHz (cpufreq maximum)');
    const none = withCpu({ ...cpu, details: { ...cpu.details, peakReason: 'no FLOP peak: neither cpufreq nor the model name gives the maximum clock' } });
    expect(none).toContain('  no FLOP peak: neither cpufreq nor the model name gives the maximum clock');
  });

  it('in Spanish', () => {
    const text = devices('es');
    expect(text).toMatch(/^id\s+nombre\s+memoria\s+pico FP32\s+pico FP64\s+pico de memoria$/m);
    expect(text).toMatch(/^cuda:0\s+NVIDIA H100 80GB HBM3\s+79,2 GiB\s+66,9 TFLOP\/s\s+33,5 TFLOP\/s\s+3,4 TB\/s$/m);
    expect(text).toContain('  capacidad de cómputo 9.0, 132 SM a 1980 MHz (máx. 1980 MHz), warp de 32');
    expect(text).toContain('  memoria:     79,2 GiB (78,7 GiB libres), bus de 5120 bits a 2619 MHz, L2 de 50 MiB, ECC activado');
    expect(text).toContain('  compartida:  48 KiB por bloque (227 KiB con opt-in), 228 KiB por SM');
    expect(text).toContain('  picos:       memoria     2 × 2619 MHz × 5120 bit / 8 = 3352,3 GB/s');
    expect(text).toContain('               FP32        132 SMs × 128 FP32 cores (compute capability 9.0) × 2 FLOP × 1980 MHz = 66908 GFLOP/s');
    expect(text).toContain('               PCIe        16 lanes × 32,0 GT/s (PCIe 5) × 128b/130b / 8 = 63,0 GB/s per direction');
    expect(text).toMatch(/^ {2}ahora: {7}SM a 1980 MHz, memoria a 2619 MHz, 36 °C, 77 W de 700 W, ocupación 0 %; límites de frecuencia: ninguno$/m);
  });

  it('in English, the tensor cores\' peaks beside the others', () => {
    const text = devices('en');
    expect(text).toContain('  memory:  79.2 GiB (78.7 GiB free), 5120-bit bus at 2619 MHz, L2 50 MiB, ECC on');
    expect(text).toContain('  peaks:   memory      2 × 2619 MHz × 5120 bit / 8 = 3352.3 GB/s');
    expect(text).toContain('           FP64        FP32 peak 66908 GFLOP/s × 1/2 (data-centre chip, compute capability 9.0) = 33454 GFLOP/s');
    // The tensor cores' peaks from the peak table: the H100's fp64 tensor cores twice its FP64 lanes.
    expect(text).toContain('           FP64 tensor 132 SMs × 256 FLOP/clock × 1980 MHz = 66908 GFLOP/s (Hopper, sm_90)');
    expect(text).toContain('           INT8 tensor 132 SMs × 8192 OP/clock × 1980 MHz = 2141061 GOP/s (Hopper, sm_90)');
    expect(text).toMatch(/^ {2}now: {5}SM 1980 MHz, memory 2619 MHz, 36 °C, 77 W of 700 W, busy 0 %; clock limits: none$/m);
  });

  describe('on a machine with the driver alone', () => {
    const searched = ['/usr/local/cuda/lib64', '/home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib'];
    const missing = (lib: string): LibraryStatus => ({ found: false, soname: null, path: null, version: null, reason: `none of ${lib}.so.13, ${lib}.so.12 could be opened`, searched });
    const driverOnly: DeviceReport = { ...report, cuda: { ...report.cuda, libraries: { ...report.cuda.libraries, cublas: missing('libcublas'), nvrtc: missing('libnvrtc') } } };
    const lines = (r: DeviceReport, locale: Locale): string[] => formatDevices(r, { locale, t: cliText(locale) }).split('\n');

    it('says under each missing library where it was looked for and the commands that install it', () => {
      const text = lines(driverOnly, 'en');
      const at = text.indexOf('  cuBLAS  not found: none of libcublas.so.13, libcublas.so.12 could be opened');
      expect(text.slice(at, at + 8)).toEqual([
        '  cuBLAS  not found: none of libcublas.so.13, libcublas.so.12 could be opened',
        '          searched after the loader’s path: /usr/local/cuda/lib64, /home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib',
        '          Debian 13, Ubuntu 24.04 or later: sudo apt install libcublas12',
        "          or with pip, into a conda environment or the Python active when GPU Lab starts: python3 -m pip install 'nvidia-cublas==13.*'",
        '  NVRTC   not found: none of libnvrtc.so.13, libnvrtc.so.12 could be opened',
        '          searched after the loader’s path: /usr/local/cuda/lib64, /home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib',
        '          Debian 13, Ubuntu 24.04 or later: sudo apt install libnvrtc12',
        "          or with pip, into a conda environment or the Python active when GPU Lab starts: python3 -m pip install 'nvidia-cuda-nvrtc==13.*'",
      ]);
      expect(text[at + 8]).toBe('  NVML    580.159.04  /usr/local/nvidia/lib64/libnvidia-ml.so.1');
      expect(text[at + 9]).toBe('GPU Lab looks for cuBLAS and NVRTC once, as it starts: run it again after installing them.');
    });

    it('in Spanish, with the same commands', () => {
      const text = lines(driverOnly, 'es');
      expect(text).toContain('          buscada, después de la ruta del cargador, en: /usr/local/cuda/lib64, /home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib');
      expect(text).toContain('          Debian 13, Ubuntu 24.04 o posterior: sudo apt install libnvrtc12');
      expect(text).toContain("          o con pip, en un entorno de conda o en el Python activo al iniciar GPU Lab: python3 -m pip install 'nvidia-cuda-nvrtc==13.*'");
      expect(text).toContain('GPU Lab busca cuBLAS y NVRTC una sola vez, al arrancar: vuelve a ejecutarlo después de instalarlas.');
    });

    it('without a CUDA device, says where each library was looked for and offers no commands', () => {
      const noGpu: DeviceReport = { ...driverOnly, cuda: { ...driverOnly.cuda, available: false, reason: 'no CUDA device: the driver found none', devices: [] }, telemetry: [] };
      const text = lines(noGpu, 'en');
      expect(text).toContain('          searched after the loader’s path: /usr/local/cuda/lib64, /home/ana/.local/lib/python3.12/site-packages/nvidia/cu13/lib');
      expect(text.join('\n')).not.toMatch(/apt install|pip install|run it again/);
    });

    it('where no folder but the loader\'s path was searched, says so', () => {
      const nowhere: DeviceReport = { ...driverOnly, cuda: { ...driverOnly.cuda, libraries: { ...driverOnly.cuda.libraries, nvrtc: { ...missing('libnvrtc'), searched: [] } } } };
      const text = lines(nowhere, 'en');
      expect(text[text.indexOf('  NVRTC   not found: none of libnvrtc.so.13, libnvrtc.so.12 could be opened') + 1]).toBe('          searched in the loader’s path only');
    });
  });
});
