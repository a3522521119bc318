// `pnpm bench`: measures the built site as a visitor meets it. Builds when the build is missing or stale
// (or always with --rebuild), then runs each benchmark in turn, or only those named:
//   pnpm bench registrations burst        (names as arguments)
//   pnpm bench --only=postgres,memory     (the same, as one option)
// A benchmark is a module under scripts/bench/ exporting `title` and `run({ baseUrl })`; add new ones to the list.
// Those marked `sharedSite` measure one site started here on a free port; the others start what they need.
import { availableParallelism } from 'node:os'
import { ensureSiteBuild, startSite } from '../tests/support/site-server.ts'
import * as adminList from './bench/admin-list.mjs'
import * as checkIn from './bench/check-in.mjs'
import * as lighthouseScores from './bench/lighthouse-scores.mjs'
import * as memory from './bench/memory.mjs'
import * as pageThroughput from './bench/page-throughput.mjs'
import * as pageWeight from './bench/page-weight.mjs'
import * as postgresCluster from './bench/postgres-cluster.mjs'
import * as registrationBurst from './bench/registration-burst.mjs'
import * as registrations from './bench/registrations.mjs'
import * as startup from './bench/startup.mjs'

const benchmarks = [
  { name: 'startup', module: startup },
  { name: 'page-weight', module: pageWeight, sharedSite: true },
  { name: 'lighthouse', module: lighthouseScores, sharedSite: true },
  { name: 'page-throughput', module: pageThroughput, sharedSite: true },
  { name: 'memory', module: memory },
  { name: 'registrations', module: registrations },
  { name: 'burst', module: registrationBurst },
  { name: 'postgres', module: postgresCluster },
  { name: 'admin-list', module: adminList },
  { name: 'check-in', module: checkIn },
]

const args = process.argv.slice(2)
const named = args.flatMap((arg) => (arg.startsWith('--only=') ? arg.slice('--only='.length).split(',') : arg.startsWith('-') ? [] : [arg]))
const unknown = named.filter((name) => !benchmarks.some((benchmark) => benchmark.name === name))
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; the benchmarks are: ${benchmarks.map((benchmark) => benchmark.name).join(', ')}`)
  process.exit(2)
}
const selected = named.length === 0 ? benchmarks : benchmarks.filter((benchmark) => named.includes(benchmark.name))

console.log(`${availableParallelism()} cores available to Node; each figure is printed beside its target.`)
ensureSiteBuild({ force: args.includes('--rebuild') })
const site = selected.some((benchmark) => benchmark.sharedSite) ? await startSite() : undefined
try {
  for (const { name, module } of selected) {
    console.log(`\n[${name}] ${module.title}\n`)
    await module.run({ baseUrl: site?.baseUrl })
  }
} finally {
  await site?.stop()
}
