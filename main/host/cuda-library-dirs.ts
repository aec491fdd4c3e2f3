// Where cuBLAS and NVRTC may be when the system loader's path has neither. The NVIDIA driver ships NVML but not
// these two: a student machine with the driver alone has them, if at all, inside a CUDA toolkit, a conda
// environment or NVIDIA's Python wheels (installed by pip, or pulled in by PyTorch or CuPy). The compute host hands
// the folders found here to the addon (searchCudaLibrariesIn) before it first opens a library; the addon tries them
// in this order after the loader's path, and the device report lists them when a library is still missing.
import { execFile } from 'node:child_process';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

// The lib folders of NVIDIA's wheels inside a site-packages. The CUDA 13 wheels (nvidia-cublas, nvidia-cuda-nvrtc
// 13.x) put every library in one nvidia/cu13/lib; the CUDA 12 ones (nvidia-cublas-cu12, nvidia-cuda-nvrtc-cu12)
// have a folder per package. Checked in NVIDIA's own finder (NVIDIA/cuda-python,
// cuda_pathfinder/cuda/pathfinder/_dynamic_libs/supported_nvidia_libs.py, SITE_PACKAGES_LIBDIRS_LINUX_CTK) and in
// PyTorch 2.11's environment on the GPU machine (site-packages/nvidia/cu13/lib holds libcublas.so.13,
// libcublasLt.so.13, libnvrtc.so.13 and libnvrtc-builtins.so.13.0).
const WHEEL_LIB_DIRS = ['nvidia/cu13/lib', 'nvidia/cublas/lib', 'nvidia/cuda_nvrtc/lib'];

// Where conda's installers put a base environment, under the home folder; the system-wide one is `systemConda`.
const CONDA_BASES = ['miniconda3', 'anaconda3', 'miniforge3'];

// Python's own answer, so that a virtual environment, a user install and Debian's dist-packages all count. Not -S:
// without site.main(), Python 3.11 leaves sys.prefix at the base installation, and a virtual environment's
// site-packages would be missed.
const SITE_PACKAGES_SCRIPT = 'import json, site; print(json.dumps(site.getsitepackages() + [site.getusersitepackages()]))';
const PYTHON_TIMEOUT_MS = 5000;

export interface SearchPlaces {
  // CUDA_PATH, CUDA_HOME and CONDA_PREFIX; PATH, to find python3.
  env: NodeJS.ProcessEnv;
  home: string;
  // The folder CUDA toolkits install into (/usr/local: cuda, cuda-13.0, …).
  toolkitRoot: string;
  // A system-wide conda (/opt/conda).
  systemConda: string;
}

export const SYSTEM_TOOLKIT_ROOT = '/usr/local';
export const SYSTEM_CONDA = '/opt/conda';

// The folders, most specific first: what the user set (CUDA_PATH, CUDA_HOME), the environment in use (the active
// conda environment, the site-packages of the python3 on PATH), then what is installed on the machine (CUDA
// toolkits, conda installations and their environments). Only folders that exist, each once.
export async function cudaLibraryDirs(places: SearchPlaces): Promise<string[]> {
  const { env } = places;
  const activeConda = setting(env.CONDA_PREFIX);
  const conda = condaPrefixes(places).filter((p) => p !== activeConda);
  const explicit = [setting(env.CUDA_PATH), setting(env.CUDA_HOME)].flatMap((home) => (home ? libFolders(home) : []));
  const active = [...(activeConda ? [join(activeConda, 'lib')] : []), ...(await pythonSitePackages(env)).flatMap(wheelFolders)];
  const installed = [
    ...toolkits(places.toolkitRoot).flatMap(libFolders),
    ...conda.map((p) => join(p, 'lib')),
    ...[...(activeConda ? [activeConda] : []), ...conda].flatMap(condaSitePackages).flatMap(wheelFolders),
  ];
  return existingOnce([...explicit, ...active, ...installed]);
}

function setting(value: string | undefined): string | null {
  return value && isAbsolute(value) ? value : null;
}

// A toolkit keeps its libraries in lib64 (a link to targets/<arch>-linux/lib); a prefix named in CUDA_HOME may be a
// conda environment or a wheel's nvidia/cu13, with lib.
function libFolders(home: string): string[] {
  return [join(home, 'lib64'), join(home, 'lib')];
}

function wheelFolders(sitePackages: string): string[] {
  return WHEEL_LIB_DIRS.map((d) => join(sitePackages, d));
}

// /usr/local/cuda (the toolkit the system chose), then cuda-13.0, cuda-12.4, … newest first.
function toolkits(root: string): string[] {
  const versioned = entries(root)
    .map((name) => ({ name, version: /^cuda-(\d+)\.(\d+)$/.exec(name) }))
    .filter((e) => e.version !== null)
    .sort((a, b) => Number(b.version?.[1]) - Number(a.version?.[1]) || Number(b.version?.[2]) - Number(a.version?.[2]));
  return [join(root, 'cuda'), ...versioned.map((e) => join(root, e.name))];
}

// Each conda installation and each of its environments.
function condaPrefixes({ home, systemConda }: SearchPlaces): string[] {
  const bases = [...CONDA_BASES.map((b) => join(home, b)), systemConda];
  return bases.flatMap((base) => [base, ...entries(join(base, 'envs')).sort().map((e) => join(base, 'envs', e))]);
}

// A conda prefix's lib/python3.*/site-packages, newest Python first.
function condaSitePackages(prefix: string): string[] {
  const pythons = entries(join(prefix, 'lib')).filter((e) => /^python3\.\d+$/.test(e));
  pythons.sort((a, b) => Number(b.slice('python3.'.length)) - Number(a.slice('python3.'.length)));
  return pythons.map((p) => join(prefix, 'lib', p, 'site-packages'));
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

// The python3 on PATH's site-packages, or none where there is no python3 or it does not answer in time.
function pythonSitePackages(env: NodeJS.ProcessEnv): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', SITE_PACKAGES_SCRIPT], { env, timeout: PYTHON_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      if (err) {
        resolve([]);
        return;
      }
      try {
        const parsed: unknown = JSON.parse(stdout);
        resolve(Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : []);
      } catch {
        resolve([]);
      }
    });
  });
}

// The absolute folders that exist, each once: /usr/local/cuda and the cuda-13.0 it links to are one folder, kept
// under the first name met.
function existingOnce(candidates: string[]): string[] {
  const seen = new Set<string>();
  return candidates.filter((dir) => {
    if (!isAbsolute(dir) || dir.includes('\0')) return false;
    try {
      if (!statSync(dir).isDirectory()) return false;
      const real = realpathSync(dir);
      if (seen.has(real)) return false;
      seen.add(real);
      return true;
    } catch {
      return false;
    }
  });
}
