// Lighthouse's mobile audit (its default: emulated phone, simulated slow 4G) of the key pages, against the targets.
// One run's performance score swings by several points on the same build (on loopback, whether the first paint
// lands before or after the scripts arrive changes what the simulation counts), so each page is audited RUNS
// times and the median is compared with the target, as Lighthouse's own guidance on variability advises.
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumFlags, chromiumIsInstalled, chromiumPath } from '../../tests/support/chromium.ts'
import { printTable } from './table.mjs'

export const title = 'Lighthouse, mobile'

const pages = ['/', '/conference/Resilience']
const categories = ['performance', 'accessibility', 'best-practices', 'seo']
const targets = { performance: 95, accessibility: 100 }
const RUNS = 5

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

export async function run({ baseUrl }) {
  if (!chromiumIsInstalled()) {
    console.log(`Skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH).`)
    return
  }
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumFlags] })
  const rows = []
  try {
    for (const pathname of pages) {
      const runs = []
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(new URL(pathname, baseUrl).href, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: categories,
        })
        runs.push(result?.lhr.categories ?? {})
      }
      rows.push([
        pathname,
        ...categories.map((category) => {
          const values = runs.map((scores) => scores[category]?.score).filter((score) => score !== null && score !== undefined)
          if (values.length === 0) return 'n/a'
          const scores = values.map((score) => Math.round(score * 100))
          const value = median(scores)
          const range = Math.min(...scores) === Math.max(...scores) ? '' : ` (${Math.min(...scores)}-${Math.max(...scores)})`
          const target = targets[category]
          if (target === undefined) return `${value}${range}`
          return `${value}${range} ${value >= target ? '>=' : '<'} ${target} ${value >= target ? 'ok' : 'MISSED'}`
        }),
      ])
    }
  } finally {
    chrome.kill()
  }
  printTable(['page', ...categories], rows)
  console.log(`\nMedian of ${RUNS} runs, with the range when runs differ. Targets: performance >= ${targets.performance}, accessibility ${targets.accessibility}.`)
}
