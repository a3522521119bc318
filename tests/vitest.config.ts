import { defineProject } from 'vitest/config'

// These fault files need PostgreSQL (a read-only server, several instances behind HAProxy, connections killed after a send): `pnpm test:pg` runs them
// with TEST_DATABASE_URL; without it they are not collected, rather than found empty.
const POSTGRES_ONLY_FAULTS = ['faults/outbox.test.ts', 'faults/readiness.test.ts', 'faults/rolling-restart.test.ts']

export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    // tests/http and tests/ops are the `http` project (vitest.http.config.ts), the studio's browser tests the
    // `studio-browser` project (tests/studio): neither needs the shared site or browser.
    include: ['e2e/**/*.test.ts', 'faults/**/*.test.ts'],
    exclude: process.env.TEST_DATABASE_URL ? [] : POSTGRES_ONLY_FAULTS,
    globalSetup: ['./setup/global-setup.ts'],
    // As many files at a time as the run has workers (`--maxWorkers=100%`: one per core), each with its own browser
    // contexts on the shared Chromium: most of a browser test waits on the site, Chromium or a socket, so two files
    // at a time keep two cores busy where one left a third of them idle. A file that counts what it stored, or
    // needs accounts or mail of its own (the back office, payments), starts its own site (`useBackOfficeSite`, `startSite`).
    testTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a page reload plus an outbox round on a busy two-core machine.
    expect: { poll: { timeout: 15_000 } },
    // The global setup may build the site first.
    hookTimeout: 300_000,
  },
})
