"""How the worker takes one round of samples of whatever it has prepared (a library's workload, or a playground
kernel): `once(calls)` times that many calls as one sample; a round is its warm-up, then its samples."""

import math

# At most this many calls in one sample, however short a call is.
MAX_BATCH = 10_000
# A warmed call of the warm-up this many times the minimum sample or longer makes each sample one call, with no call
# more to size the batch (the engine's harness sizes from its warm-up the same way: native/src/benchmark.cc).
SIZED_BY_WARMUP = 4


class Sampled:
    """Calls shorter than the engine's minimum sample are repeated inside one sample, as many times as the first
    one says reach it, and the sample is their mean: a single call of a few microseconds reads mostly the clock.
    A subclass sets `min_ms` and `batch` (None until the first round) and gives `once`."""

    def sample(self, warmup, count):
        """`count` samples after `warmup` untimed calls: (their times, their wall times, the untimed calls made)."""
        warmed = math.inf
        for i in range(warmup):
            ms, _ = self.once()
            if i > 0:
                warmed = min(warmed, ms)
        untimed = warmup
        if self.batch is None and self.min_ms <= 0:
            self.batch = 1  # no minimum: not a call more, so that a cold first sample stays the first call
        if self.batch is None and math.isfinite(warmed) and warmed >= SIZED_BY_WARMUP * self.min_ms:
            # A warmed call of the warm-up (the second on) far longer than the minimum sample: one call a sample,
            # and no call more to size it (a gigabyte's copy takes a tenth of a second).
            self.batch = 1
        if self.batch is None:
            # The batch is fixed once, on a warmed call, and kept for every later round: without a warm-up a first
            # call (allocations, a kernel loaded) would size it.
            if warmup == 0:
                self.once()
                untimed += 1
            first, _ = self.once()
            untimed += 1
            self.batch = 1 if first <= 0 or first >= self.min_ms else min(MAX_BATCH, math.ceil(self.min_ms / first))
        samples, wall = [], []
        for _ in range(count):
            ms, host = self.once(self.batch)
            samples.append(ms)
            wall.append(host)
        return samples, wall, untimed
