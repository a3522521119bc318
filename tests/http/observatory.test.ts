// The MDN HTTP Observatory's own tests against the built site, started as a public https site would be (SITE_URL
// https). The Observatory reaches it over plain HTTP on loopback: redirecting http to https and serving HSTS over
// TLS are the TLS proxy's part, so those two tests are expected to fail here and the HSTS header is checked itself.
import { existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSite, type RunningSite } from '../support/site-server.ts'

const TLS_PROXY_TESTS: Record<string, string> = {
  // What the two tests answer once the proxy redirects http to https and passes the site's HSTS header on over TLS.
  redirection: 'redirection-to-https',
  'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
}
const SIX_MONTHS_SECONDS = 15_768_000

// The package's install script would download the HSTS preload list, which the scan reads at import; it is not run
// here (no network), and the site is on no preload list, so an empty list stands in.
const observatoryDir = path.dirname(createRequire(import.meta.url).resolve('@mdn/mdn-http-observatory/package.json'))
const preloadList = path.join(observatoryDir, 'conf/hsts-preload.json')
if (!existsSync(preloadList)) writeFileSync(preloadList, '{}')
const { scan } = await import('@mdn/mdn-http-observatory')
const { getGradeForScore, getScoreModifier } = await import('@mdn/mdn-http-observatory/src/grader/grader.js')
const { MINIMUM_SCORE_FOR_EXTRA_CREDIT } = await import('@mdn/mdn-http-observatory/src/grader/charts.js')

let site: RunningSite

beforeAll(async () => {
  site = await startSite({ env: { SITE_URL: 'https://events.example.test', PAYMENTS_SANDBOX: '1' } })
})

afterAll(async () => {
  await site?.stop()
})

/** The Observatory's own scoring (scanner/index.js) over a set of results: extra credit only from an A (90) up. */
function grade(results: readonly string[]): { score: number; grade: string } {
  let withExtraCredit = 100
  let uncurved = 100
  for (const result of results) {
    const modifier = getScoreModifier(result)
    withExtraCredit += modifier
    if (modifier < 0) uncurved += modifier
  }
  return getGradeForScore(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : uncurved)
}

describe('the MDN HTTP Observatory', () => {
  it('passes every test but the TLS proxy’s redirect and HSTS, and the site sends HSTS itself', async () => {
    const { scan: summary, tests } = await scan(new URL(site.baseUrl).host)
    const failed = Object.entries(tests).filter(([, test]) => !test.pass)
    expect(failed.map(([name, test]) => `${name}: ${test.result}`).sort()).toEqual([
      'redirection: redirection-missing',
      'strict-transport-security: hsts-not-implemented-no-https',
    ])

    const hsts = (await fetch(`${site.baseUrl}/`)).headers.get('strict-transport-security') ?? ''
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(SIX_MONTHS_SECONDS)

    const behindProxy = grade(Object.entries(tests).map(([name, test]) => TLS_PROXY_TESTS[name] ?? test.result))
    console.log(
      `MDN HTTP Observatory: ${summary.score}/100 (${summary.grade}) over plain HTTP, ${summary.testsPassed} of ${summary.testsQuantity} tests passed; ` +
        `${behindProxy.score} (${behindProxy.grade}) with the TLS proxy's redirect and HSTS`,
    )
    expect(summary.testsPassed).toBe(summary.testsQuantity - 2)
    expect(behindProxy.grade).toBe('A+')
  })
})
