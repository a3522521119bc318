import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'staff',
    // The files leave no state behind, so a worker runs them in one module graph instead of a fresh one each.
    isolate: false,
    environment: 'node',
    // Hashes passwords with scrypt, runs the CLI as a child process and, when enabled, talks to PostgreSQL.
    testTimeout: 30_000,
  },
})
