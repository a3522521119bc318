import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'payments',
    // The files leave no state behind, so a worker runs them in one module graph instead of a fresh one each.
    isolate: false,
    environment: 'node',
    // Talks to the local Yoco stand-in over HTTP and, when enabled, PostgreSQL.
    testTimeout: 30_000,
  },
})
