import { defineProject } from 'vitest/config'

// A config of its own so the React Router Vite plugin (which needs a full app build) stays out of the tests.
export default defineProject({
  test: {
    name: 'site',
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['app/**/*.test.tsx', 'app/**/*.test.ts', 'server/**/*.test.ts'],
  },
})
