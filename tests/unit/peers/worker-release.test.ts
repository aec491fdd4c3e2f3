// The worker's release after a point of large arrays (python/gpu_lab_peers/__main__.py release_memory), in real
// python3: arrays a point left in reference cycles are still freed, what outlived the release (the libraries'
// objects) is no longer walked by the next release's collection, and a network's weights kept across releases are
// freed with the release that lets them go. No timing: the collector's own books say what it walks.
import { spawnSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { peersDir } from '../../../main/host/python-worker.ts';

function python(lines: string[]): Record<string, unknown> {
  const script = ['import gc, json, weakref', 'import numpy as np', 'from gpu_lab_peers.__main__ import RELEASE_BYTES, release_memory', ...lines].join('\n');
  const r = spawnSync('python3', ['-c', script], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: peersDir() ?? '' } });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

// A point's arrays held in a cycle, as a library's object that refers to itself holds them.
const CYCLE = ['class Held:', '    pass'];

describe('the worker\'s release of a point', () => {
  it('frees arrays held in cycles, and leaves the objects that outlived it out of the next collection', () => {
    const out = python([
      ...CYCLE,
      // A library's many objects, made at its import, before any point.
      'library = [{"i": [i]} for i in range(200_000)]',
      'first = Held(); first.me = first; first.array = np.ones(1000); gone_first = weakref.ref(first); del first',
      'release_memory(RELEASE_BYTES)',
      'walked_after_first = len(gc.get_objects())',
      'second = Held(); second.me = second; second.array = np.ones(1000); gone_second = weakref.ref(second); del second',
      'release_memory(RELEASE_BYTES)',
      'print(json.dumps({"firstFreed": gone_first() is None, "secondFreed": gone_second() is None, "walked": walked_after_first, "library": len(library)}))',
    ]);
    expect(out).toMatchObject({ firstFreed: true, secondFreed: true, library: 200_000 });
    // The 200 000 objects the library made are no longer in the collector's generations.
    expect(out.walked).toBeLessThan(20_000);
  });

  it('frees a network\'s weights kept across releases with the release that lets them go, cycles and all', () => {
    const out = python([
      ...CYCLE,
      'from gpu_lab_peers.labs import text_to_image',
      'net = Held(); net.me = net; net.weights = np.ones(1000); gone = weakref.ref(net)',
      'text_to_image._models["key"] = net; del net',
      // Kept between the run's points: every point's release leaves it.
      'release_memory(RELEASE_BYTES)',
      'release_memory(RELEASE_BYTES)',
      'kept = gone() is not None',
      'text_to_image.release_models()',
      'release_memory(RELEASE_BYTES)',
      'print(json.dumps({"kept": kept, "freed": gone() is None}))',
    ]);
    expect(out).toEqual({ kept: true, freed: true });
  });
});
