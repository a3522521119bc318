import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/site', 'studio', 'tests', 'tests/vitest.http.config.ts', 'tests/studio'],
  },
})
