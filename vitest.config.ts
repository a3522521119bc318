import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/site', 'studio', 'tests'],
    // One worker per core rather than Vitest's default of one fewer: the unit tests spend much of their time
    // waiting on SQLite, SMTP sockets and timers, so on a two-core machine a single worker leaves a core idle.
    // The browser project keeps one file at a time (fileParallelism: false) and runs after the others.
    maxWorkers: '100%',
  },
})
