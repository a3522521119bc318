import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'content',
    // The files leave no state behind, so a worker runs them in one module graph instead of a fresh one each.
    isolate: false,
    environment: 'node',
  },
})
