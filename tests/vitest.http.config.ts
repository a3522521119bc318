import { defineProject } from 'vitest/config'

// The system tests without a browser (tests/http, tests/ops): each file starts its own sites and mostly waits on
// them, so two files run at a time like the unit tests, while the browser project keeps its one-at-a-time rule.
export default defineProject({
  test: {
    name: 'http',
    environment: 'node',
    include: ['http/**/*.test.ts', 'ops/**/*.test.ts'],
    // The PostgreSQL backup and restore needs a server: `pnpm test:pg`'s TEST_DATABASE_URL.
    exclude: process.env.TEST_DATABASE_URL ? [] : ['ops/backup-postgres.test.ts'],
    globalSetup: ['./setup/build-site.ts'],
    testTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a log line's way to its file on a busy two-core machine.
    expect: { poll: { timeout: 15_000 } },
    // The global setup may build the site first.
    hookTimeout: 300_000,
  },
})
