#!/usr/bin/env node
// Builds the native addon with no download: node-gyp against the headers of the Node that runs this script,
// and, where nvcc is found, the CUDA kernels (shaders/cuda/*.cu) and the CUDA half of the addon (native/cuda/*.cu)
// compiled into a static library linked with the static CUDA runtime.
//
//   GPU_LAB_CUDA=0        build CPU-only even where nvcc exists
//   CUDA_HOME=/path       the CUDA toolkit to use (default: the directory above the nvcc on PATH, or /usr/local/cuda)
//   GPU_LAB_CUDA_ARCHS    space-separated SM numbers (default "75 80 86 89 90"); PTX is embedded for the last one
//
// node-gyp and node-addon-api (the C++ headers the addon compiles against) are devDependencies: they build the addon
// and are never loaded by it, so they stay out of the installed app (electron-builder packs the `dependencies`; the
// installers carry the addon built here). This is package.json's `install` script, run in a checkout, after `npm ci` has
// installed the devDependencies; the package is `private`, never installed from a registry where they would be missing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = join(root, 'native');
const cudaBuildDir = join(nativeDir, 'build', 'cuda');
const require = createRequire(import.meta.url);

// What `find` finds of a build tool of package.json's devDependencies, or a sentence saying why it is not there.
function buildTool(name, find) {
  try {
    return find();
  } catch {
    throw new Error(`${name} is not installed: it is a devDependency, so build from a checkout with \`npm ci\` (not --omit=dev).`);
  }
}

function log(message) {
  process.stdout.write(`[build-native] ${message}\n`);
}

function nodeHeadersDir() {
  // An installed Node (official tarball, the npm `node` package, distro packages) ships its headers beside the
  // binary; pointing node-gyp there keeps it from downloading them.
  const candidates = [resolve(process.execPath, '..', '..'), process.env.npm_config_nodedir, '/usr', '/usr/local'];
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, 'include', 'node', 'node_api.h')) && existsSync(join(dir, 'include', 'node', 'common.gypi'))) {
      return dir;
    }
  }
  throw new Error(
    `No Node.js headers found beside ${process.execPath} or in /usr, /usr/local. Install a Node.js that ships ` +
      'include/node (the official tarball, or `npm i node@24`), or set npm_config_nodedir.',
  );
}

function findNvcc() {
  if (process.env.GPU_LAB_CUDA === '0') return { nvcc: null, reason: 'GPU_LAB_CUDA=0' };
  const homes = [process.env.CUDA_HOME, process.env.CUDA_PATH];
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v nvcc'], { encoding: 'utf8' }).trim();
    if (onPath) homes.push(resolve(onPath, '..', '..'));
  } catch {
    // not on PATH
  }
  homes.push('/usr/local/cuda');
  if (!existsSync(join(nativeDir, 'cuda', 'cuda_module.cu'))) return { nvcc: null, reason: 'no CUDA sources in native/cuda' };
  for (const home of homes) {
    if (home && existsSync(join(home, 'bin', 'nvcc')) && existsSync(join(home, 'include', 'cuda_runtime.h'))) {
      return { nvcc: join(home, 'bin', 'nvcc'), home, reason: null };
    }
  }
  return { nvcc: null, reason: 'nvcc not found (set CUDA_HOME, or put nvcc on PATH)' };
}

function newest(paths) {
  return Math.max(...paths.map((p) => statSync(p).mtimeMs));
}

function listFiles(dir, ext) {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).map((f) => join(dir, f)) : [];
}

function run(cmd, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolvePromise() : reject(new Error(`${cmd} ${args.slice(0, 3).join(' ')}… failed (${signal ?? code})`)),
    );
  });
}

async function buildCuda(nvcc) {
  mkdirSync(cudaBuildDir, { recursive: true });
  const archs = (process.env.GPU_LAB_CUDA_ARCHS ?? '75 80 86 89 90').split(/\s+/).filter(Boolean);
  const gencode = archs.flatMap((a) => ['-gencode', `arch=compute_${a},code=sm_${a}`]);
  const last = archs[archs.length - 1];
  gencode.push('-gencode', `arch=compute_${last},code=compute_${last}`);
  const sources = [...listFiles(join(root, 'shaders', 'cuda'), '.cu'), ...listFiles(join(nativeDir, 'cuda'), '.cu')];
  const headers = [
    ...listFiles(join(root, 'shaders', 'cuda'), '.cuh'),
    ...listFiles(join(nativeDir, 'cuda'), '.h'),
    ...listFiles(join(nativeDir, 'src'), '.h'),
  ];
  const headerTime = headers.length ? newest(headers) : 0;
  const napiInclude = buildTool('node-addon-api', () => require('node-addon-api').include_dir);
  const nodeInclude = join(nodeHeadersDir(), 'include', 'node');
  const objects = [];
  const jobs = [];
  for (const src of sources) {
    const obj = join(cudaBuildDir, `${src.startsWith(nativeDir) ? 'native_' : 'shader_'}${src.split('/').pop().replace(/\.cu$/, '.o')}`);
    objects.push(obj);
    if (existsSync(obj) && statSync(obj).mtimeMs > Math.max(statSync(src).mtimeMs, headerTime)) continue;
    const args = [
      '-c', src, '-o', obj, '-O3', '-std=c++17', '--threads', '0', '-Xcompiler', '-fPIC', '-Xcompiler', '-fexceptions',
      '-DNAPI_VERSION=9', '-DNAPI_CPP_EXCEPTIONS', '-DNODE_ADDON_API_DISABLE_DEPRECATED', '-DGPU_LAB_WITH_CUDA',
      `-I${nativeDir}`, `-I${join(root, 'shaders', 'cuda')}`, `-I${napiInclude}`, `-I${nodeInclude}`,
      ...gencode,
    ];
    jobs.push(() => {
      log(`nvcc ${src.slice(root.length + 1)}`);
      return run(nvcc, args);
    });
  }
  const width = Math.max(1, Math.min(cpus().length, 4));
  for (let i = 0; i < jobs.length; i += width) await Promise.all(jobs.slice(i, i + width).map((j) => j()));
  const lib = join(cudaBuildDir, 'libgpulab_cuda.a');
  if (!existsSync(lib) || newest(objects) > statSync(lib).mtimeMs || jobs.length) {
    await run('ar', ['rcs', lib, ...objects]);
  }
  return lib;
}

async function main() {
  const nodedir = nodeHeadersDir();
  const cuda = findNvcc();
  const gypArgs = [];
  if (cuda.nvcc) {
    log(`CUDA: ${cuda.nvcc}`);
    const lib = await buildCuda(cuda.nvcc);
    // make does not know that the addon depends on the static library: relink when the library is newer.
    for (const linked of [join(nativeDir, 'build', 'Release', 'gpu_lab.node'), join(nativeDir, 'build', 'Release', 'obj.target', 'gpu_lab.node')]) {
      if (existsSync(linked) && statSync(linked).mtimeMs < statSync(lib).mtimeMs) rmSync(linked);
    }
    gypArgs.push('-Dwith_cuda=1', `-Dcuda_home=${cuda.home}`, `-Dcuda_lib_dir=${cudaBuildDir}`);
  } else {
    log(`building without CUDA: ${cuda.reason}`);
  }
  const gyp = buildTool('node-gyp', () => require.resolve('node-gyp/bin/node-gyp.js'));
  const common = [`--nodedir=${nodedir}`, '--release'];
  // npm passes its own nodedir setting through the environment, which node-gyp would prefer to the flag.
  const env = { ...process.env, npm_config_nodedir: nodedir };
  await run(process.execPath, [gyp, 'configure', ...common, '--', ...gypArgs], { cwd: nativeDir, env });
  await run(process.execPath, [gyp, 'build', ...common, `-j`, String(cpus().length)], { cwd: nativeDir, env });
  writeFileSync(
    join(nativeDir, 'build', 'build-info.json'),
    JSON.stringify({ cuda: Boolean(cuda.nvcc), cudaReason: cuda.reason, nodedir, builtAt: new Date().toISOString() }, null, 2),
  );
  log(`built native/build/Release/gpu_lab.node (${cuda.nvcc ? 'with CUDA' : 'CPU only'})`);
}

main().catch((err) => {
  process.stderr.write(`[build-native] ${err.message}\n`);
  process.exit(1);
});
