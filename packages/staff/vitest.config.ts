import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'staff',
    environment: 'node',
    // Hashes passwords with scrypt, runs the CLI as a child process and, when enabled, talks to PostgreSQL.
    testTimeout: 30_000,
  },
})
