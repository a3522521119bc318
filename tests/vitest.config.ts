import { configDefaults, defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    // The studio's browser tests are a project of their own (tests/studio): they need no site server.
    exclude: [...configDefaults.exclude, 'studio/**'],
    globalSetup: ['./setup/global-setup.ts'],
    // One browser at a time: the machines have two cores, shared by Chromium and the site server.
    fileParallelism: false,
    testTimeout: 60_000,
    // The global setup may build the site first.
    hookTimeout: 300_000,
  },
})
