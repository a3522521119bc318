import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    // tests/http and tests/ops are the `http` project (vitest.http.config.ts), the studio's browser tests the
    // `studio-browser` project (tests/studio): neither needs the shared site or browser.
    include: ['e2e/**/*.test.ts', 'faults/**/*.test.ts'],
    globalSetup: ['./setup/global-setup.ts'],
    // One browser at a time: the machines have two cores, shared by Chromium and the site server.
    fileParallelism: false,
    testTimeout: 60_000,
    // The global setup may build the site first.
    hookTimeout: 300_000,
  },
})
