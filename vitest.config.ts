import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{server,shared,app,scripts}/**/*.test.{ts,tsx}'],
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
