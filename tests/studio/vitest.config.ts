import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'studio-browser',
    environment: 'node',
    // One browser and one studio dev server at a time: the machines have two cores.
    fileParallelism: false,
    testTimeout: 120_000,
    // `sanity dev` bundles the studio on its first request.
    hookTimeout: 180_000,
  },
})
