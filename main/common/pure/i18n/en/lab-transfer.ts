// transfer's words in English: its findings, series and points, and what the lab says of itself (its descriptor's words).
import type { DescriptorText } from '../lab-text-types.ts';

export const transfer = {
  series: {
    'h2d-pageable-sync': 'host→device, pageable, sync',
    'h2d-pageable-async': 'host→device, pageable, async',
    'h2d-pinned-sync': 'host→device, pinned, sync',
    'h2d-pinned-async': 'host→device, pinned, async',
    'd2h-pageable-sync': 'device→host, pageable, sync',
    'd2h-pageable-async': 'device→host, pageable, async',
    'd2h-pinned-sync': 'device→host, pinned, sync',
    'd2h-pinned-async': 'device→host, pinned, async',
    d2d: 'device→device',
    // WebGPU's own copies from pageable memory (host/webgpu/copy.ts).
    'webgpu-h2d-write-buffer': 'host→device, writeBuffer',
    'webgpu-h2d-mapped': 'host→device, mapped upload buffer',
    'webgpu-d2h-mapped': 'device→host, mapped staging buffer',
    // The course's own copies in PyTorch (python/gpu_lab_peers/labs/transfer.py), each beside the series it matches.
    'torch-h2d-pageable': "PyTorch .to('cuda') from pageable memory",
    'torch-h2d-pinned': "PyTorch .to('cuda', non_blocking=True) from pinned memory",
    'torch-d2h-pageable': 'PyTorch .copy_() back into pageable memory',
    'torch-d2h-pinned': 'PyTorch .copy_() back into pinned memory',
  },
  // The directions the pinned-against-pageable findings name.
  directions: { h2d: 'host→device', d2h: 'device→host' },
  findings: {
    peak: '{series}: up to {rate} (at {at}); half of that needs copies of {half} or more{latency}.',
    // The smallest copy measured already reaches half the best rate: nothing was measured below where it is reached.
    peakHalfAtSmallest: '{series}: up to {rate} (at {at}); already half of that at the smallest copy measured, {half}{latency}.',
    // The device→device series' name in its peak finding: its rate counts each byte read and written.
    readWrite: '{series} (read + write)',
    latency: '; {size} takes {time}, where its bytes at {rate} would take {bytesTime}: the rest is latency',
    pinned: '{direction}: pinned memory reaches {ratio} the bandwidth of pageable memory ({pinned} against {pageable}).',
    d2dShare: "Device→device copies move {rate} (read + write), {share} of the GPU's theoretical {peak}.",
    // WebGPU's two ways up at one size ({written}: queue.writeBuffer; {mapped}: a mapped upload buffer filled, then
    // copyBufferToBuffer), as far as the two medians' intervals tell.
    uploadWriteFaster: 'At {size}, writeBuffer ({written}) takes less time than filling a mapped upload buffer and copying it ({mapped}): the mapped way takes {ratio} as long.',
    uploadMappedFaster: 'At {size}, filling a mapped upload buffer and copying it ({mapped}) takes less time than writeBuffer ({written}): writeBuffer takes {ratio} as long.',
    uploadLevel: 'At {size}, writeBuffer ({written}) and a mapped upload buffer copied with copyBufferToBuffer ({mapped}) cannot be told apart at this precision.',
    busVsMemory:
      'Copying {size} inside the GPU takes {inside}; bringing the same bytes across the bus ({series}) takes {across}, {ratio} longer ({insideRate} against {acrossRate}, each counting the bytes once). Data that stays on the GPU costs far less than data that travels.',
  },
} as const;

// What the lab says of itself (the descriptor's words): its title, summary, explanation, what to look for, and the
// words of its own parameters and presets, by name and id.
export const transferDescriptor: DescriptorText = {
  title: 'Host↔device transfers: bandwidth, latency and pinned memory',
  summary: 'Copy bandwidth over 1 KiB … 1 GiB: host→device, device→host (pageable and pinned, sync and async) and device→device.',
  explanation: [
    'A discrete GPU has its own memory. Data reaches it over PCIe (or NVLink), a bus a few times slower than the CPU\'s memory and tens of times slower than the GPU\'s. Every copy also pays a fixed latency of several microseconds, so small copies reach only a fraction of the bus bandwidth: the curve of GB/s against size rises and then flattens.',
    'Ordinary (pageable) host memory can be moved by the operating system, so the driver first copies it into a pinned staging buffer, then lets the GPU\'s copy engine read it. Pinned (page-locked) memory skips that step and is the only kind an asynchronous copy can really overlap with other work. The course article measured 11.45 ms against 7.32 ms for a copy of a 5000² float32 matrix (95.4 MiB), a 1.56× gain; pinned memory is a limited resource, so use it for buffers you copy often.',
    'Device→device copies stay inside the GPU\'s memory and show its bandwidth; they are counted here as read plus write, so they compare with the memory\'s theoretical peak.',
  ],
  lookFor: [
    'The size where each curve reaches half its peak: below it, latency dominates.',
    'Pinned against pageable at large sizes.',
    'Asynchronous copies from pageable memory: they are not truly asynchronous and run at pageable speed.',
    'Device→device bandwidth against the bus: the reason to keep data on the GPU.',
  ],
  parameters: {
    minBytes: { label: 'Smallest copy', description: 'Sizes go up by factors of 4 from this.' },
    maxBytes: { label: 'Largest copy', description: 'Largest copy, at least the smallest; the GPU needs twice this free for device→device copies.' },
    directions: { label: 'Directions', description: 'Copy directions.' },
    hostMemory: { label: 'Host memory', description: 'Kinds of host memory for host↔device copies.' },
    modes: { label: 'Copy modes', description: 'Synchronous copies, or asynchronous copies on a stream then a synchronisation.' },
  },
  presets: {
    full: { label: 'Full sweep, 1 KiB … 1 GiB', description: 'Every size from 1 KiB to 1 GiB, by factors of 4, and the course\'s three copies (39.1 KiB, 3.81 MiB and 95.4 MiB): latency on the left, the bus\'s bandwidth on the right.' },
    'seed-003': { label: 'The article\'s sizes (HPC con GPU 3/22)', description: 'From 39.1 KiB to 95.4 MiB: the 100², 1000² and 5000² float32 matrices the course copies, and sizes by factors of 4 from 39.1 KiB.' },
    quick: { label: 'Quick look, up to 64 MiB', description: 'Host↔device only, small to medium sizes: a few seconds.' },
  },
};
