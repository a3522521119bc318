// Requests per second and latency of a public page answered by the page cache (GET /conference/Resilience, brotli,
// 16 concurrent clients), beside a precompressed static asset of the same build measured the same way in the same run:
// the ratio says how close a cached page comes to a file.
import { Agent, request } from 'node:http'
import { measure } from './registrations.mjs'
import { cores, printTable, printTargets } from './table.mjs'

export const title = `Cached page against a static asset (16 concurrent clients, Accept-Encoding: br, ${cores} cores)`

const PAGE = '/conference/Resilience'
const RATIO_TARGET = 0.5
const P99_TARGET_MS = 30

/** @returns {Promise<void>} */
function get(agent, url) {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
      response.resume()
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`))
        else resolve()
      })
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

async function measureGets(url) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 })
  try {
    return await measure(() => get(agent, url))
  } finally {
    agent.destroy()
  }
}

export async function run({ baseUrl }) {
  const page = await (await fetch(`${baseUrl}${PAGE}`)).text()
  // The page's own entry script: a hashed asset sent as the brotli file the build wrote.
  const asset = /\/assets\/entry\.client-[\w-]+\.js/.exec(page)?.[0]
  if (!asset) throw new Error(`${PAGE} names no entry script`)
  const pageResult = await measureGets(`${baseUrl}${PAGE}`)
  const assetResult = await measureGets(`${baseUrl}${asset}`)
  const row = (name, result) => [name, String(result.count), result.perSecond.toFixed(0), `${result.p50.toFixed(1)} ms`, `${result.p99.toFixed(1)} ms`]
  printTable(['GET', 'requests', 'per second', 'p50', 'p99'], [row(`${PAGE} (cached page)`, pageResult), row(`${asset} (static asset)`, assetResult)])
  const ratio = pageResult.perSecond / assetResult.perSecond
  printTargets([
    { figure: "page's requests/s over the asset's", measured: ratio.toFixed(2), target: `>= ${RATIO_TARGET}`, met: ratio >= RATIO_TARGET },
    { figure: 'page p99', measured: `${pageResult.p99.toFixed(1)} ms`, target: `<= ${P99_TARGET_MS} ms`, met: pageResult.p99 <= P99_TARGET_MS },
  ])
}
