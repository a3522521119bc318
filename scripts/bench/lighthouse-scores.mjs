// Lighthouse's mobile audit (its default: emulated phone, simulated slow 4G) of the key pages, against the targets.
// One run's performance score swings by several points on the same build: the simulation counts every script that
// finished loading before the first paint it observed as blocking that paint, and on loopback whether the paint lands
// before or after the page's JavaScript arrives depends on how busy the machine is. So each page is audited RUNS
// times and the median is compared with the target, as Lighthouse's own guidance on variability advises, beside the
// median largest contentful paint.
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumFlags, chromiumIsInstalled, chromiumPath } from '../../tests/support/chromium.ts'
import { printTable } from './table.mjs'

export const title = 'Lighthouse, mobile'

const pages = ['/', '/conference/Resilience', '/workshop', '/inhouse-training']
const categories = ['performance', 'accessibility', 'best-practices', 'seo']
const targets = { performance: 100, accessibility: 100 }
const largestPaintTargetMs = 1500
const RUNS = 5

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function largestPaintCell(values) {
  if (values.length === 0) return 'n/a'
  const value = median(values)
  const ok = value <= largestPaintTargetMs
  return `${value} (${Math.min(...values)}-${Math.max(...values)}) ${ok ? '<=' : '>'} ${largestPaintTargetMs} ${ok ? 'ok' : 'MISSED'}`
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
      const largestPaints = []
      for (let run = 0; run < RUNS; run++) {
        const result = await lighthouse(new URL(pathname, baseUrl).href, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: categories,
        })
        runs.push(result?.lhr.categories ?? {})
        const largestPaint = result?.lhr.audits['largest-contentful-paint']?.numericValue
        if (largestPaint !== undefined) largestPaints.push(Math.round(largestPaint))
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
        largestPaintCell(largestPaints),
      ])
    }
  } finally {
    chrome.kill()
  }
  printTable(['page', ...categories, 'LCP ms'], rows)
  console.log(
    `\nMedian of ${RUNS} runs, with the range when runs differ. Targets: performance >= ${targets.performance}, ` +
      `accessibility ${targets.accessibility}, largest contentful paint <= ${largestPaintTargetMs} ms.`,
  )
}
