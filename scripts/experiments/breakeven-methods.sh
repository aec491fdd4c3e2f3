#!/usr/bin/env bash
# The break-even labs three times in a row under each way of measuring being compared (sizes per decade), then the
# noise of single CPU and GPU points, for the GPU machine.
set -u
run() {
  echo "=== $*"
  node scripts/check-breakeven.mjs --detail "$@" 2>&1 | grep -v -- '-gpu-transfers@'
}
run --lab elementwise-breakeven
run --lab elementwise-breakeven --param elementwise-breakeven.pointsPerDecade=2
run --lab matmul-breakeven
node scripts/experiments/breakeven-noise.mjs --trials 3 --sizes 300000,1000000
