import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'payments',
    environment: 'node',
    // Talks to the local Yoco stand-in over HTTP and, when enabled, PostgreSQL.
    testTimeout: 30_000,
  },
})
