import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/native/**/*.test.ts'],
    // Native measurements share the machine's cores: running test files one at a time keeps them honest and
    // keeps two multithreaded kernels from fighting over two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
