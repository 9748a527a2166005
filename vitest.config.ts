import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS } from './playwright.config.ts';

// Two projects: Node for the server, shared rules and scripts (and app logic without a DOM),
// and a real Chromium for React components, so focus, keyboard and layout are the browser's.
// Each project names its timeouts: a project does not take the root's.
const timeouts = { testTimeout: 20_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...timeouts,
          name: 'node',
          include: ['{server,shared,app,scripts,vpn-node}/**/*.test.ts'],
          globalSetup: ['server/test/global-setup.ts'],
          pool: 'forks',
        },
      },
      {
        plugins: [react(), tailwindcss()],
        test: {
          ...timeouts,
          name: 'browser',
          include: ['app/**/*.test.tsx'],
          // What a screen shows after a lazy chunk or a click may take longer than the 1 s
          // default on two busy CI cores; a screen that never shows it still fails.
          expect: { poll: { timeout: 5_000 } },
          setupFiles: ['app/test/setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                args: CHROMIUM_ARGS,
              },
            }),
            instances: [{ browser: 'chromium', viewport: { width: 1280, height: 800 } }],
          },
        },
      },
    ],
  },
});
