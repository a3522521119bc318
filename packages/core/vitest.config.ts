import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'core',
    environment: 'node',
    // Delivery tests talk to a real SMTP server and, when enabled, PostgreSQL.
    testTimeout: 30_000,
  },
})
