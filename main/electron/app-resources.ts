// Where the desktop app finds what it ships beside its code. Packaged (electron-builder.yml), the kernel sources the
// labs show are resources (resources/shaders/cuda, resources/native/cpu) and the addon is unpacked from the asar
// (resources/app.asar.unpacked/native/build/Release), since a shared library must be a real file to be dlopen'ed.
// From a source checkout both sit at the repository root, where the lab host and native/addon.ts look by default.
import { join } from 'node:path';

export interface AppResources {
  // Folders holding shaders/ and native/ for the kernel sources; undefined: the lab host's default (the checkout).
  sourceRoots: string[] | undefined;
  // Given to the compute host on top of main's environment.
  computeHostEnv: Record<string, string>;
}

export function packagedAddonPath(resourcesPath: string): string {
  return join(resourcesPath, 'app.asar.unpacked', 'native', 'build', 'Release', 'gpu_lab.node');
}

export function appResources(isPackaged: boolean, resourcesPath: string): AppResources {
  if (!isPackaged) return { sourceRoots: undefined, computeHostEnv: {} };
  return {
    sourceRoots: [resourcesPath],
    // The packaged addon by its real path, set over whatever GPU_LAB_ADDON the app was started with: an installed
    // app loads only the native code it shipped with (as its fuses keep NODE_OPTIONS from loading other code).
    // The Python peers' package, a resource the compute host hands to the interpreter it starts. The WGSL kernels a
    // WebGPU measurement compiles, resources as the CUDA sources are (host/webgpu/wgsl.ts).
    computeHostEnv: { GPU_LAB_ADDON: packagedAddonPath(resourcesPath), GPU_LAB_PEERS_DIR: join(resourcesPath, 'python'), GPU_LAB_SHADERS_DIR: join(resourcesPath, 'shaders') },
  };
}
