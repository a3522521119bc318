import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'core',
    // The files leave no state behind, so a worker runs them in one module graph instead of a fresh one each.
    isolate: false,
    environment: 'node',
    // Delivery tests talk to a real SMTP server and, when enabled, PostgreSQL.
    testTimeout: 30_000,
  },
})
