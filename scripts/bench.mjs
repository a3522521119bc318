// `pnpm bench`: measures the built site as a visitor meets it. Builds when the build is missing or stale
// (or always with --rebuild), starts the server on a free port, then runs each benchmark in turn.
// A benchmark is a module under scripts/bench/ exporting `title` and `run({ baseUrl })`; add new ones to the list.
import { ensureSiteBuild, startSite } from '../tests/support/site-server.ts'
import * as adminList from './bench/admin-list.mjs'
import * as lighthouseScores from './bench/lighthouse-scores.mjs'
import * as mailDelivery from './bench/mail-delivery.mjs'
import * as pageThroughput from './bench/page-throughput.mjs'
import * as pageWeight from './bench/page-weight.mjs'
import * as registrations from './bench/registrations.mjs'

const benchmarks = [pageWeight, lighthouseScores, pageThroughput, registrations, mailDelivery, adminList]

ensureSiteBuild({ force: process.argv.includes('--rebuild') })
const site = await startSite()
try {
  for (const benchmark of benchmarks) {
    console.log(`\n${benchmark.title}\n`)
    await benchmark.run({ baseUrl: site.baseUrl })
  }
} finally {
  await site.stop()
}
