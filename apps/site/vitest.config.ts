import { defineProject } from 'vitest/config'

// A config of its own so the React Router Vite plugin (which needs a full app build) stays out of the tests.
export default defineProject({
  test: {
    name: 'site',
    // The files leave no state behind (the setup file cleans up after each test), so a worker runs them in one
    // module graph and jsdom instead of a fresh one each: a sixth of the time.
    isolate: false,
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['app/**/*.test.tsx', 'app/**/*.test.ts', 'server/**/*.test.ts'],
  },
})
