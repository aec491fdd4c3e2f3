"""How the worker takes one round of samples of whatever it has prepared (a library's workload, or a playground
kernel): `once(calls)` times that many calls as one sample; a round is its warm-up, then its samples."""

import math

# At most this many calls in one sample, however short a call is.
MAX_BATCH = 10_000


class Sampled:
    """Calls shorter than the engine's minimum sample are repeated inside one sample, as many times as the first
    one says reach it, and the sample is their mean: a single call of a few microseconds reads mostly the clock.
    A subclass sets `min_ms` and `batch` (None until the first round) and gives `once`."""

    def sample(self, warmup, count):
        for _ in range(warmup):
            self.once()
        if self.batch is None and self.min_ms <= 0:
            self.batch = 1  # no minimum: not a call more, so that a cold first sample stays the first call
        if self.batch is None:
            # The batch is fixed once, on a warmed call, and kept for every later round: without a warm-up a first
            # call (allocations, a kernel loaded) would size it.
            if warmup == 0:
                self.once()
            first, _ = self.once()
            self.batch = 1 if first <= 0 or first >= self.min_ms else min(MAX_BATCH, math.ceil(self.min_ms / first))
        samples, wall = [], []
        for _ in range(count):
            ms, host = self.once(self.batch)
            samples.append(ms)
            wall.append(host)
        return samples, wall
