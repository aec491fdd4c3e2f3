#!/usr/bin/env bash
# Issue 8's checks in one call on the GPU machine: the GPU tests, pageable copies beside PyTorch, and the break-even
# labs three times in a row (scripts/check-breakeven.mjs).
node --test --test-concurrency=1 --test-reporter=spec 'tests/gpu/*.test.ts' > "$OUT/test-gpu.log" 2>&1; echo "gpu tests $?"; grep -E '^ℹ (tests|pass|fail)' "$OUT/test-gpu.log"
node scripts/experiments/pageable-copies.mjs 2>&1 | grep -E "pageable|torch" | tee "$OUT/pageable.txt"
node scripts/check-breakeven.mjs --detail 2>&1 | tee "$OUT/check.txt" | grep -E "on cuda|resident  |^gpu-|noisy points|FAILED|every break-even" | cut -c1-170
