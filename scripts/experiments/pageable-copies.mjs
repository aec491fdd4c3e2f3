#!/usr/bin/env node
// Pageable host↔device copies of 1 GiB, ours against PyTorch's in the same call, with the variants that could
// explain a difference: cudaMemcpy against cudaMemcpyAsync + synchronise, CUDA events against the host clock, the
// measuring thread pinned or free, the host buffer's alignment. Prints the machine's NUMA layout and GPU affinity
// first. For the GPU machine:   node scripts/experiments/pageable-copies.mjs
import { execFileSync } from 'node:child_process';

import { benchmark, createDeviceBuffer, createHostBuffer } from '../../native/index.ts';

const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    return `(${cmd}: ${String(err.message).split('\n')[0]})`;
  }
};
console.log(sh('nvidia-smi', ['topo', '-m']));
console.log(sh('lscpu', []).split('\n').filter((l) => /NUMA|Model name|^CPU\(s\)/.test(l)).join('\n'));
console.log('THP:', sh('cat', ['/sys/kernel/mm/transparent_hugepage/enabled']));

const GiB = 1 << 30;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const host = createHostBuffer('int8', GiB).fillRandom(1);
const dev = createDeviceBuffer('int8', GiB, 'cuda:0');
for (const direction of ['h2d', 'd2h']) {
  const [src, dst] = direction === 'h2d' ? [host, dev] : [dev, host];
  for (const mode of ['sync', 'async']) {
    for (const clock of ['events', 'host']) {
      const r = await benchmark({ op: 'copy', device: 'cuda:0', clock, mode, src, dst }, { warmup: 1, repeats: 7 });
      const ms = median(clock === 'events' && r.deviceMs ? r.deviceMs : r.hostMs);
      console.log(`${direction} pageable ${mode.padEnd(5)} clock ${clock.padEnd(6)}  ${(GiB / ms / 1e6).toFixed(2)} GB/s  (median ${ms.toFixed(1)} ms; samples ${r.hostMs.map((x) => x.toFixed(0)).join(' ')})`);
    }
  }
}
host.free();
dev.free();
console.log('\ntorch, same call:');
console.log(
  sh('python3', [
    '-c',
    `import torch, time, statistics
G=1<<30
h=torch.empty(G,dtype=torch.uint8).fill_(7); d=torch.empty(G,dtype=torch.uint8,device='cuda')
print('torch host ptr % 4096 =', h.data_ptr() % 4096)
def t(f,r=7):
  f(); torch.cuda.synchronize(); s=[]
  for _ in range(r):
    t0=time.perf_counter(); f(); torch.cuda.synchronize(); s.append(time.perf_counter()-t0)
  return statistics.median(s)
print('torch h2d pageable %.2f GB/s' % (G/t(lambda: d.copy_(h))/1e9))
print('torch d2h pageable %.2f GB/s' % (G/t(lambda: h.copy_(d))/1e9))`,
  ]),
);
