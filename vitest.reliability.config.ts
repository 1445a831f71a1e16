import { defineConfig } from 'vitest/config';

/** `npm run test:reliability`: the real server as a child process, killed, stopped and loaded on purpose. */
export default defineConfig({
  test: {
    include: ['reliability/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
