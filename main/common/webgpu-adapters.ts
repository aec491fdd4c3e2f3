// What GPU Lab makes of a WebGPU adapter from the little WebGPU tells of it (vendor, architecture, device and
// description strings, whether it is a fallback adapter): whether it is a program on the CPU, the name to show, the
// key of its device lock, and its theoretical peaks from a table of adapters whose datasheets are known.
//
// WebGPU gives no PCI vendor or device id, no core count and no clock (Dawn's Node bindings expose the four strings
// and isFallbackAdapter only), so the table is keyed by the adapter's name as Dawn reports it, normalised to lower-case
// words joined by hyphens ("nvidia-geforce-rtx-4090", "apple-m1-pro"). A name the table does not hold, or one that
// names parts with different figures (Apple's M3 Max comes with a 300 and a 400 GB/s memory; an RTX 4070 with GDDR6X
// or GDDR6), has no peak: "no peak known", never a guess.

export interface AdapterFacts {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
}

// Lower-case letters and digits joined by single hyphens: how Dawn reports `device`, made so whatever it reported.
export function adapterSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const SOFTWARE_NAMES = /(^|-)(llvmpipe|lavapipe|softpipe|swiftshader|microsoft-basic-render-driver)(-|$)/;

// A program on the CPU rather than a GPU: a fallback adapter by WebGPU's own word, an architecture named "software",
// or one of the CPU renderers by name (Dawn's GL backend reports Mesa's llvmpipe as no fallback adapter).
export function isSoftwareAdapterFacts(a: AdapterFacts): boolean {
  return a.isFallbackAdapter || a.architecture === 'software' || SOFTWARE_NAMES.test(adapterSlug(a.device)) || SOFTWARE_NAMES.test(adapterSlug(a.description));
}

// The adapter's name as people read it: Dawn's device string with its hyphens as spaces, else its description.
export function adapterName(a: AdapterFacts): string {
  const fromDevice = adapterSlug(a.device).replace(/-/g, ' ');
  return fromDevice || a.description.trim() || a.vendor.trim() || 'WebGPU adapter';
}

// The name of the adapter's device lock (main/engine/device-lock.ts): the same GPU is the same lock whichever backend
// or list position it has in a process.
export function adapterLockKey(a: AdapterFacts): string {
  return `webgpu:${(adapterSlug(a.device) || adapterSlug(a.description) || 'adapter').slice(0, 56)}`;
}

// NVIDIA's GPU by its vendor (PCI vendor id 0x10de, which Dawn reports as "nvidia") or its name. WebGPU gives no UUID,
// PCI bus id or LUID to tell which CUDA device it is, so such an adapter takes every CUDA device's lock.
export const isNvidiaAdapter = (a: AdapterFacts): boolean => /nvidia|^(0x)?10de$/i.test(a.vendor.trim()) || adapterSlug(a.device).startsWith('nvidia');

export interface AdapterPeak {
  // GFLOP/s or GB/s; null where the table has no figure for this part.
  value: number | null;
  // The arithmetic and its source, or why there is no figure.
  formula: string;
}

export interface AdapterPeaks {
  // The table's name of the part, or null where the table does not know the adapter.
  part: string | null;
  fp32Gflops: AdapterPeak;
  memoryGBps: AdapterPeak;
}

// FP32 lanes × 2 (an FMA is two operations) × the boost clock; AMD's RDNA 3 issues two FP32 operations per lane per
// clock (dual issue), and AMD counts them.
interface Compute {
  lanes: number;
  boostMHz: number;
  dualIssue?: true;
}
// The memory's data rate per pin × its bus width ÷ 8, or the vendor's own figure where it gives only that (Apple).
type Memory = { gbpsPerPin: number; busBits: number } | { stated: number; what: string };

interface KnownAdapter {
  part: string;
  match: RegExp;
  compute: Compute | string;
  memory: Memory | string;
  source: string;
}

const NVIDIA = 'NVIDIA GeForce datasheet';
const AMD = 'AMD Radeon product page';
const INTEL = 'Intel Arc product page';
const APPLE = 'Apple’s figure for the chip';
const APPLE_CORES = 'no peak known: the FP32 rate depends on the number of GPU cores, which WebGPU does not tell';

const KNOWN: readonly KnownAdapter[] = [
  { part: 'NVIDIA GeForce RTX 5090', match: /^nvidia-geforce-rtx-5090$/, compute: { lanes: 21760, boostMHz: 2407 }, memory: { gbpsPerPin: 28, busBits: 512 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 5080', match: /^nvidia-geforce-rtx-5080$/, compute: { lanes: 10752, boostMHz: 2617 }, memory: { gbpsPerPin: 30, busBits: 256 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4090', match: /^nvidia-geforce-rtx-4090$/, compute: { lanes: 16384, boostMHz: 2520 }, memory: { gbpsPerPin: 21, busBits: 384 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4080', match: /^nvidia-geforce-rtx-4080$/, compute: { lanes: 9728, boostMHz: 2505 }, memory: { gbpsPerPin: 22.4, busBits: 256 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4070 Ti', match: /^nvidia-geforce-rtx-4070-ti$/, compute: { lanes: 7680, boostMHz: 2610 }, memory: { gbpsPerPin: 21, busBits: 192 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4070', match: /^nvidia-geforce-rtx-4070$/, compute: { lanes: 5888, boostMHz: 2475 }, memory: 'no peak known: the RTX 4070 comes with GDDR6X (504 GB/s) and GDDR6 (480 GB/s)', source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4060 Ti', match: /^nvidia-geforce-rtx-4060-ti$/, compute: { lanes: 4352, boostMHz: 2535 }, memory: { gbpsPerPin: 18, busBits: 128 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 4060', match: /^nvidia-geforce-rtx-4060$/, compute: { lanes: 3072, boostMHz: 2460 }, memory: { gbpsPerPin: 17, busBits: 128 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 3090', match: /^nvidia-geforce-rtx-3090$/, compute: { lanes: 10496, boostMHz: 1695 }, memory: { gbpsPerPin: 19.5, busBits: 384 }, source: NVIDIA },
  { part: 'NVIDIA GeForce RTX 3070', match: /^nvidia-geforce-rtx-3070$/, compute: { lanes: 5888, boostMHz: 1725 }, memory: { gbpsPerPin: 14, busBits: 256 }, source: NVIDIA },
  // RADV adds the chip's code name in parentheses ("AMD Radeon RX 7900 XTX (RADV NAVI31)").
  { part: 'AMD Radeon RX 7900 XTX', match: /^amd-radeon-rx-7900-xtx(-radv-[a-z0-9]+)?$/, compute: { lanes: 6144, boostMHz: 2500, dualIssue: true }, memory: { gbpsPerPin: 20, busBits: 384 }, source: AMD },
  { part: 'AMD Radeon RX 7900 XT', match: /^amd-radeon-rx-7900-xt(-radv-[a-z0-9]+)?$/, compute: { lanes: 5376, boostMHz: 2400, dualIssue: true }, memory: { gbpsPerPin: 20, busBits: 320 }, source: AMD },
  { part: 'AMD Radeon RX 6900 XT', match: /^amd-radeon-rx-6900-xt(-radv-[a-z0-9]+)?$/, compute: { lanes: 5120, boostMHz: 2250 }, memory: { gbpsPerPin: 16, busBits: 256 }, source: AMD },
  { part: 'AMD Radeon RX 6800 XT', match: /^amd-radeon-rx-6800-xt(-radv-[a-z0-9]+)?$/, compute: { lanes: 4608, boostMHz: 2250 }, memory: { gbpsPerPin: 16, busBits: 256 }, source: AMD },
  { part: 'Intel Arc A770', match: /^intel-r-arc-tm-a770-graphics(-dg2)?$/, compute: { lanes: 4096, boostMHz: 2100 }, memory: 'no peak known: the Arc A770 comes with 8 GB at 512 GB/s and 16 GB at 560 GB/s', source: INTEL },
  { part: 'Intel Arc A750', match: /^intel-r-arc-tm-a750-graphics(-dg2)?$/, compute: { lanes: 3584, boostMHz: 2050 }, memory: { gbpsPerPin: 16, busBits: 256 }, source: INTEL },
  { part: 'Apple M1', match: /^apple-m1$/, compute: APPLE_CORES, memory: { stated: 68.25, what: 'LPDDR4X-4266, 128-bit' }, source: APPLE },
  { part: 'Apple M1 Pro', match: /^apple-m1-pro$/, compute: APPLE_CORES, memory: { stated: 200, what: 'LPDDR5, 256-bit' }, source: APPLE },
  { part: 'Apple M1 Max', match: /^apple-m1-max$/, compute: APPLE_CORES, memory: { stated: 400, what: 'LPDDR5, 512-bit' }, source: APPLE },
  { part: 'Apple M1 Ultra', match: /^apple-m1-ultra$/, compute: APPLE_CORES, memory: { stated: 800, what: 'LPDDR5, 1024-bit' }, source: APPLE },
  { part: 'Apple M2', match: /^apple-m2$/, compute: APPLE_CORES, memory: { stated: 100, what: 'LPDDR5, 128-bit' }, source: APPLE },
  { part: 'Apple M2 Pro', match: /^apple-m2-pro$/, compute: APPLE_CORES, memory: { stated: 200, what: 'LPDDR5, 256-bit' }, source: APPLE },
  { part: 'Apple M2 Max', match: /^apple-m2-max$/, compute: APPLE_CORES, memory: { stated: 400, what: 'LPDDR5, 512-bit' }, source: APPLE },
  { part: 'Apple M2 Ultra', match: /^apple-m2-ultra$/, compute: APPLE_CORES, memory: { stated: 800, what: 'LPDDR5, 1024-bit' }, source: APPLE },
  { part: 'Apple M3', match: /^apple-m3$/, compute: APPLE_CORES, memory: { stated: 100, what: 'LPDDR5, 128-bit' }, source: APPLE },
  { part: 'Apple M3 Pro', match: /^apple-m3-pro$/, compute: APPLE_CORES, memory: { stated: 150, what: 'LPDDR5, 192-bit' }, source: APPLE },
  { part: 'Apple M3 Max', match: /^apple-m3-max$/, compute: APPLE_CORES, memory: 'no peak known: the M3 Max comes with 300 GB/s and 400 GB/s memory', source: APPLE },
  { part: 'Apple M4', match: /^apple-m4$/, compute: APPLE_CORES, memory: { stated: 120, what: 'LPDDR5X, 128-bit' }, source: APPLE },
  { part: 'Apple M4 Pro', match: /^apple-m4-pro$/, compute: APPLE_CORES, memory: { stated: 273, what: 'LPDDR5X, 256-bit' }, source: APPLE },
  { part: 'Apple M4 Max', match: /^apple-m4-max$/, compute: APPLE_CORES, memory: 'no peak known: the M4 Max comes with 410 GB/s and 546 GB/s memory', source: APPLE },
];

const fixed = (value: number, digits = 1): string => value.toFixed(digits).replace(/\.0+$/, '');

function computePeak(c: Compute | string, source: string): AdapterPeak {
  if (typeof c === 'string') return { value: null, formula: c };
  const issue = c.dualIssue ? 2 : 1;
  const value = (c.lanes * 2 * issue * c.boostMHz) / 1000;
  const dual = c.dualIssue ? ' × 2 (dual issue)' : '';
  return { value, formula: `${c.lanes} FP32 lanes × 2${dual} × ${c.boostMHz} MHz = ${fixed(value / 1000)} TFLOP/s (${source})` };
}

function memoryPeak(m: Memory | string, source: string): AdapterPeak {
  if (typeof m === 'string') return { value: null, formula: m };
  if ('stated' in m) return { value: m.stated, formula: `${fixed(m.stated, 2)} GB/s (${source}: ${m.what})` };
  const value = (m.gbpsPerPin * m.busBits) / 8;
  return { value, formula: `${fixed(m.gbpsPerPin)} Gb/s × ${m.busBits} bit / 8 = ${fixed(value)} GB/s (${source})` };
}

// The peaks of the adapter named `device`, from the table; "no peak known" where it is not there. A software adapter
// has none of its own (its numbers are the CPU's).
export function adapterPeaks(a: AdapterFacts): AdapterPeaks {
  const slug = adapterSlug(a.device);
  const known = isSoftwareAdapterFacts(a) ? undefined : KNOWN.find((k) => k.match.test(slug));
  if (!known) {
    const why = isSoftwareAdapterFacts(a) ? 'no peak known: a software adapter runs on the CPU' : `no peak known: “${slug || a.description}” is not in GPU Lab’s table of WebGPU adapters`;
    return { part: null, fp32Gflops: { value: null, formula: why }, memoryGBps: { value: null, formula: why } };
  }
  return { part: known.part, fp32Gflops: computePeak(known.compute, known.source), memoryGBps: memoryPeak(known.memory, known.source) };
}

// What the device list says of an adapter (host/webgpu/listing.ts: its features as one comma-separated line, its
// limits as `limit.NAME`), for the plans that depend on them.
export function adapterHas(gpu: { details: Record<string, unknown> }, feature: string): boolean {
  const features = gpu.details.features;
  return typeof features === 'string' && features.split(/,\s*/).includes(feature);
}

export function adapterLimit(gpu: { details: Record<string, unknown> }, limit: string): number | null {
  const value = gpu.details[`limit.${limit}`];
  return typeof value === 'number' && value > 0 ? value : null;
}
