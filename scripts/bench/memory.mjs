// The site process's resident memory after 10,000 requests for public pages (every content page in turn, 16
// clients, brotli), read from its own /metrics (process_resident_memory_bytes: VmRSS from /proc/self), beside what it
// held once started, with V8's heap and the memory outside it beside each, to show where it goes. The site runs with
// production's options of Node (siteNodeOptions); the same site with V8's defaults is measured beside it.
import { Agent, request } from 'node:http'
import { contentPages } from '../../tests/support/routes.ts'
import { siteNodeOptions, startSite } from '../../tests/support/site-server.ts'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Resident memory of the site after 10,000 public page requests (${cores} cores)`

const REQUESTS = 10_000
const CONCURRENCY = 16
const RSS_TARGET_MB = 350
const METRICS_TOKEN = 'bench-memory-metrics-token'

/** @returns {Promise<void>} */
function get(agent, url) {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
      response.resume()
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}`))))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

const MEMORY_METRICS = {
  rss: 'process_resident_memory_bytes',
  heapTotal: 'nodejs_heap_size_total_bytes',
  heapUsed: 'nodejs_heap_size_used_bytes',
  external: 'nodejs_external_memory_bytes',
}

/** The site's memory in MB from its /metrics: resident size, V8's heap (reserved and used) and memory outside it. */
async function memoryMegabytes(baseUrl) {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  const text = await response.text()
  return Object.fromEntries(
    Object.entries(MEMORY_METRICS).map(([name, metric]) => {
      const bytes = new RegExp(`^${metric} (\\d+)`, 'm').exec(text)?.[1]
      if (!bytes) throw new Error(`/metrics answered ${response.status} without ${metric}`)
      return [name, Number(bytes) / 1024 / 1024]
    }),
  )
}

/** Starts a site with these options of Node, sends the requests, and answers its memory once started and after them. */
async function measureSite(nodeOptions) {
  const site = await startSite({ env: { METRICS_TOKEN }, nodeOptions })
  try {
    const atStart = await memoryMegabytes(site.baseUrl)
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
    let next = 0
    try {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < REQUESTS) {
            const pathname = contentPages[next++ % contentPages.length]
            await get(agent, `${site.baseUrl}${pathname}`)
          }
        }),
      )
    } finally {
      agent.destroy()
    }
    return { atStart, after: await memoryMegabytes(site.baseUrl) }
  } finally {
    await site.stop()
  }
}

export async function run() {
  const measured = await measureSite(siteNodeOptions)
  // Context: V8's defaults, which size the young generation and let the old one grow with garbage towards limits
  // taken from the machine's memory; the difference is garbage not yet collected, not pages kept.
  const defaults = await measureSite([])
  const megabytes = (value) => `${value.toFixed(0)} MB`
  const row = (when, memory) => [when, megabytes(memory.rss), megabytes(memory.heapTotal), megabytes(memory.heapUsed), megabytes(memory.external)]
  console.log(`${REQUESTS} requests over ${contentPages.length} pages, ${CONCURRENCY} clients\n`)
  printTable(
    [`site (${siteNodeOptions.join(' ')})`, 'resident', 'V8 heap', 'heap used', 'outside the heap'],
    [
      row('once started', measured.atStart),
      row(`after ${REQUESTS} requests`, measured.after),
      row(`context: V8's defaults, once started`, defaults.atStart),
      row(`context: V8's defaults, after ${REQUESTS}`, defaults.after),
    ],
  )
  printTargets([
    {
      figure: `resident memory after ${REQUESTS} page requests`,
      measured: megabytes(measured.after.rss),
      target: `<= ${RSS_TARGET_MB} MB`,
      met: (measured.after.rss ?? Infinity) <= RSS_TARGET_MB,
    },
  ])
}
