// The inspector's attributes as labelled, formatted values in the groups a reader looks for: what the GPU is, how
// much it computes, its memory, its shared memory, its copies and link to the host, its power. Plain functions of
// the report, so that a test can hold them against `gpu-lab devices`, field by field.
import type { CudaDeviceInfo } from '../../../main/common/device-report.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';
import { formatBytes } from '../../../main/common/pure/format.ts';

// The plural argument picks a count's form: "1 físico", "8 físicos".
export type Translate = (key: string, named?: Record<string, unknown>, plural?: number) => string;

export interface DeviceField {
  id: string;
  label: string;
  value: string;
  hint: string | null;
}

export interface FieldGroup {
  id: string;
  title: string;
  fields: DeviceField[];
}

export interface FieldContext {
  t: Translate;
  locale: string;
}

// A label from `<prefix>.fields.<id>.label`, and its hint where the catalog has one.
function fieldOf(prefix: string, hasHint: ReadonlySet<string>, { t }: FieldContext) {
  return (id: string, value: string): DeviceField => ({
    id,
    label: t(`${prefix}.fields.${id}.label`),
    value,
    hint: hasHint.has(id) ? t(`${prefix}.fields.${id}.hint`) : null,
  });
}

// 65536 → "65,536" in English: the digits of registers, clocks and bus widths grouped as the reader's language does.
export function count(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

function orUnknown<T>(value: T | null, show: (v: T) => string, t: Translate): string {
  return value === null ? t('devices.unknown') : show(value);
}

const GPU_HINTS = new Set([
  'id', 'uuid', 'computeCapability', 'multiprocessors', 'smClock', 'warpSize', 'registers', 'memoryFree', 'l2', 'ecc',
  'sharedPerBlock', 'sharedPerBlockOptin', 'sharedPerSm', 'copyEngines', 'pcieCurrent', 'powerLimit',
]);

export function gpuFieldGroups(d: CudaDeviceInfo, ctx: FieldContext): FieldGroup[] {
  const { t, locale } = ctx;
  const field = fieldOf('devices.gpu', GPU_HINTS, ctx);
  const mhz = (v: number): string => t('devices.units.mhz', { value: count(v, locale) });
  const yesNo = (v: boolean): string => t(v ? 'devices.yes' : 'devices.no');
  const link = (generation: number | null, width: number | null): string =>
    generation === null ? t('devices.unknown') : t('devices.units.link', { generation, width: width ?? '?' });
  const group = (id: string, fields: DeviceField[]): FieldGroup => ({ id, title: t(`devices.gpu.groups.${id}`), fields });
  return [
    group('identity', [
      field('name', d.name),
      field('id', d.id),
      field('uuid', d.uuid),
      field('pciBusId', d.pciBusId),
      field('computeCapability', d.computeCapability),
      field('integrated', t(d.integrated ? 'devices.gpu.integrated.yes' : 'devices.gpu.integrated.no')),
    ]),
    group('compute', [
      field('multiprocessors', count(d.multiprocessors, locale)),
      field('smClock', mhz(d.smClockMHz)),
      field('maxSmClock', orUnknown(d.maxSmClockMHz, mhz, t)),
      field('warpSize', count(d.warpSize, locale)),
      field('registers', count(d.registersPerMultiprocessor, locale)),
      field('threads', count(d.maxThreadsPerMultiprocessor, locale)),
    ]),
    group('memory', [
      field('memoryTotal', formatBytes(d.memoryTotalBytes)),
      field('memoryFree', formatBytes(d.memoryFreeBytes)),
      field('busWidth', t('devices.units.bits', { value: count(d.memoryBusWidthBits, locale) })),
      field('memoryClock', mhz(d.memoryClockMHz)),
      field('l2', formatBytes(d.l2CacheBytes)),
      field('ecc', yesNo(d.eccEnabled)),
    ]),
    group('shared', [
      field('sharedPerBlock', formatBytes(d.sharedMemoryPerBlockBytes)),
      field('sharedPerBlockOptin', formatBytes(d.sharedMemoryPerBlockOptinBytes)),
      field('sharedPerSm', formatBytes(d.sharedMemoryPerMultiprocessorBytes)),
    ]),
    group('copies', [
      field('copyEngines', count(d.copyEngines, locale)),
      field('overlap', yesNo(d.concurrentCopyAndExecution)),
      field('concurrentKernels', yesNo(d.concurrentKernels)),
      field('pcieCurrent', link(d.pcie.currentGeneration, d.pcie.currentWidth)),
      field('pcieMax', link(d.pcie.maxGeneration, d.pcie.maxWidth)),
    ]),
    group('power', [field('powerLimit', orUnknown(d.powerLimitW, (w) => t('devices.units.watts', { value: Math.round(w) }), t))]),
  ];
}

const CPU_HINTS = new Set(['cores', 'simd', 'l3', 'blas']);

// The CPU's details are an open record (main may add keys); the ones known here are read with their types checked.
function detail<T extends string | number>(d: DeviceSummary, key: string, type: 'string' | 'number'): T | null {
  const value = d.details[key];
  return typeof value === type ? (value as T) : null;
}

export function cpuFieldGroups(d: DeviceSummary, blas: string, ctx: FieldContext): FieldGroup[] {
  const { t, locale } = ctx;
  const field = fieldOf('devices.cpu', CPU_HINTS, ctx);
  const bytes = (key: string): string => orUnknown(detail<number>(d, key, 'number'), formatBytes, t);
  const physical = detail<number>(d, 'physicalCores', 'number');
  const logical = detail<number>(d, 'logicalCores', 'number');
  const cores =
    physical === null || logical === null
      ? t('devices.unknown')
      : t('devices.cpu.cores', {
          physical: t('devices.cpu.physicalCores', { count: count(physical, locale) }, physical),
          logical: t('devices.cpu.logicalCores', { count: count(logical, locale) }, logical),
        });
  const group = (id: string, fields: DeviceField[]): FieldGroup => ({ id, title: t(`devices.cpu.groups.${id}`), fields });
  return [
    group('processor', [field('model', d.name), field('cores', cores), field('simd', detail<string>(d, 'simd', 'string') ?? t('devices.unknown'))]),
    group('memory', [field('l2', bytes('l2CacheBytes')), field('l3', bytes('l3CacheBytes')), field('memory', orUnknown(d.memoryBytes, formatBytes, t))]),
    group('gemm', [field('blas', blas)]),
  ];
}
