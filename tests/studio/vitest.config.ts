import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'studio-browser',
    environment: 'node',
    // One file at a time: each starts `sanity dev` in studio/, and two would share its Vite cache.
    fileParallelism: false,
    testTimeout: 120_000,
    // `sanity dev` bundles the studio on its first request.
    hookTimeout: 180_000,
  },
})
