// WebGPU in the compute host, through Dawn's Node bindings (npm `webgpu`): the only place that loads them, so that a
// driver's crash kills this process and never the app (DESIGN §3). Loaded the first time a device list or a WebGPU
// measurement asks, never at start: a host that only measures the CPU pays nothing for it.
//
// The objects create() returns are held here for the life of the process: when V8 collected one, Dawn crashed
// (a SIGSEGV in CallbackTaskManager::Flush, a futex error, or a hang in mapAsync; ../shared/recipes/webgpu-and-slurm.md).
//
// Adapters: WebGPU gives one per request, so the host asks for the high-performance one, the low-power one and the
// fallback (software) one, and keeps each different one, in that order: webgpu:0, webgpu:1, … The backend is the
// platform's (Vulkan on Linux, Metal on macOS, D3D12 on Windows); on Linux, where Vulkan finds no adapter (Debian 12's
// own lavapipe is refused), Dawn's OpenGL ES backend in compatibility mode is tried next. GPU_LAB_WEBGPU=off turns
// WebGPU off; GPU_LAB_WEBGPU_BACKEND names one backend to use instead.
import type { AdapterFacts } from '../../common/webgpu-adapters.ts';

export const WEBGPU_ENV = 'GPU_LAB_WEBGPU';
export const WEBGPU_BACKEND_ENV = 'GPU_LAB_WEBGPU_BACKEND';

// Dawn's backends by the names its `backend=` flag takes.
const BACKENDS = ['vulkan', 'metal', 'd3d12', 'd3d11', 'opengles', 'opengl'] as const;
type Backend = (typeof BACKENDS)[number];
const BACKEND_NAMES: Record<Backend, string> = { vulkan: 'Vulkan', metal: 'Metal', d3d12: 'Direct3D 12', d3d11: 'Direct3D 11', opengles: 'OpenGL ES', opengl: 'OpenGL' };

interface DawnModule {
  create(flags: string[]): GPU;
  globals: object;
}

export interface FoundAdapter {
  id: `webgpu:${number}`;
  adapter: GPUAdapter;
  backend: string;
  // 'compatibility' on Dawn's GL backends, which cannot give all of core WebGPU.
  featureLevel: 'core' | 'compatibility';
  facts: AdapterFacts;
  features: string[];
  limits: Record<string, number>;
}

export interface AdapterSearch {
  adapters: FoundAdapter[];
  // Why there is none, when there is none.
  reason: string | null;
  // The version of Dawn's bindings that was loaded, where one was.
  bindings: string | null;
}

// Never emptied: see the header.
const held: GPU[] = [];
let search: Promise<AdapterSearch> | null = null;

function platformBackends(): Backend[] {
  if (process.platform === 'darwin') return ['metal'];
  if (process.platform === 'win32') return ['d3d12'];
  return ['vulkan', 'opengles'];
}

function limitsOf(adapter: GPUAdapter): Record<string, number> {
  const out: Record<string, number> = {};
  const limits = adapter.limits as unknown as Record<string, unknown>;
  // The limits are accessors on the prototype, not own properties.
  for (const key in limits) {
    const value = limits[key];
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}

function factsOf(adapter: GPUAdapter): AdapterFacts {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    isFallbackAdapter: info.isFallbackAdapter === true,
  };
}

async function bindingsVersion(): Promise<string | null> {
  try {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('webgpu/package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : null;
  } catch {
    return null;
  }
}

async function findAdapters(env: NodeJS.ProcessEnv): Promise<AdapterSearch> {
  if (env[WEBGPU_ENV] === 'off') return { adapters: [], reason: `WebGPU is turned off (${WEBGPU_ENV}=off)`, bindings: null };
  const forced = env[WEBGPU_BACKEND_ENV];
  if (forced !== undefined && forced !== '' && !(BACKENDS as readonly string[]).includes(forced)) {
    return { adapters: [], reason: `${WEBGPU_BACKEND_ENV}=${forced} is not one of Dawn's backends (${BACKENDS.join(', ')})`, bindings: null };
  }
  let dawn: DawnModule;
  try {
    dawn = (await import('webgpu')) as unknown as DawnModule;
  } catch (err) {
    return { adapters: [], reason: `Dawn's Node bindings (npm webgpu) did not load: ${(err as Error).message}`, bindings: null };
  }
  // GPUBufferUsage, GPUMapMode and the other constants WebGPU code names as globals.
  Object.assign(globalThis, dawn.globals);
  const bindings = await bindingsVersion();
  const backends = forced ? [forced as Backend] : platformBackends();
  const adapters: FoundAdapter[] = [];
  const refused: string[] = [];
  for (const backend of backends) {
    const featureLevel = backend === 'opengles' || backend === 'opengl' ? 'compatibility' : 'core';
    // Mesa's EGL looks for a display without it, and there is none on a server.
    if (featureLevel === 'compatibility') process.env.EGL_PLATFORM ??= 'surfaceless';
    let gpu: GPU;
    try {
      // Timestamps at full resolution: Dawn rounds them to 65.536 µs by default (a browser's guard against timing
      // attacks), which would leave a short dispatch at 0 or one step.
      gpu = dawn.create([`backend=${backend}`, 'disable-dawn-features=timestamp_quantization']);
    } catch (err) {
      refused.push(`${BACKEND_NAMES[backend]}: ${(err as Error).message}`);
      continue;
    }
    held.push(gpu);
    const options: GPURequestAdapterOptions[] = [{ powerPreference: 'high-performance' }, { powerPreference: 'low-power' }, { forceFallbackAdapter: true }];
    for (const option of options) {
      let adapter: GPUAdapter | null;
      try {
        adapter = await gpu.requestAdapter({ ...option, featureLevel });
      } catch {
        adapter = null;
      }
      if (!adapter) continue;
      const facts = factsOf(adapter);
      const same = adapters.some((a) => a.facts.vendor === facts.vendor && a.facts.device === facts.device && a.facts.description === facts.description && a.facts.architecture === facts.architecture);
      if (same) continue;
      adapters.push({ id: `webgpu:${adapters.length}`, adapter, backend: BACKEND_NAMES[backend], featureLevel, facts, features: [...adapter.features].map(String).sort(), limits: limitsOf(adapter) });
    }
    if (adapters.length > 0) break;
    refused.push(`${BACKEND_NAMES[backend]}: no adapter`);
  }
  if (adapters.length > 0) return { adapters, reason: null, bindings };
  const hint = process.platform === 'linux' ? ' (a Vulkan driver is needed: on Debian or Ubuntu, mesa-vulkan-drivers; README.md, "Requirements")' : '';
  return { adapters: [], reason: `no WebGPU adapter: ${refused.join('; ')}${hint}`, bindings };
}

// The adapters of this process, looked for once.
export function webgpuAdapters(env: NodeJS.ProcessEnv = process.env): Promise<AdapterSearch> {
  search ??= findAdapters(env);
  return search;
}
