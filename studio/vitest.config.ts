import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'studio',
    environment: 'node',
    // Validating the whole dataset through the studio's rules takes a few seconds on a cold start.
    testTimeout: 30_000,
  },
})
