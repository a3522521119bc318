import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: 'pricing',
    // The files leave no state behind, so a worker runs them in one module graph instead of a fresh one each.
    isolate: false,
  },
})
