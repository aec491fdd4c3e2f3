// transfer's findings and series in English (the descriptor's words are in ../../transfer.ts).
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
  },
  // The directions the pinned-against-pageable findings name.
  directions: { h2d: 'host→device', d2h: 'device→host' },
  findings: {
    peak: '{series}: up to {rate} (at {at}); half of that needs copies of {half} or more{latency}.',
    // The device→device series' name in its peak finding: its rate counts each byte read and written.
    readWrite: '{series} (read + write)',
    latency: '; {size} takes {time}, where its bytes at {rate} would take {bytesTime}: the rest is latency',
    pinned: '{direction}: pinned memory reaches {ratio} the bandwidth of pageable memory ({pinned} against {pageable}).',
    d2dShare: "Device→device copies move {rate} (read + write), {share} of the GPU's theoretical {peak}.",
    busVsMemory:
      'Copying {size} inside the GPU takes {inside}; bringing the same bytes across the bus ({series}) takes {across}, {ratio} longer ({insideRate} against {acrossRate}, each counting the bytes once). Data that stays on the GPU costs far less than data that travels.',
  },
} as const;
