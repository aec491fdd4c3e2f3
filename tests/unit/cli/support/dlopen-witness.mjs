// Loaded with --import into every Node process of a test (the CLI and the compute host it forks, through
// NODE_OPTIONS): each native module a process loads is written to GPU_LAB_DLOPEN_LOG as "<pid> <path>", so that a
// test can tell which process loaded the addon.
import { appendFileSync } from 'node:fs';

const log = process.env.GPU_LAB_DLOPEN_LOG;
const dlopen = process.dlopen;
process.dlopen = function witnessed(module, filename, ...rest) {
  if (log) appendFileSync(log, `${process.pid} ${filename}\n`);
  return dlopen.call(this, module, filename, ...rest);
};
