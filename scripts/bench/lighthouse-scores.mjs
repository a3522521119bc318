// Lighthouse's mobile audit (its default: emulated phone, simulated slow 4G) of the key pages, against the targets.
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromiumFlags, chromiumIsInstalled, chromiumPath } from '../../tests/support/chromium.ts'
import { printTable } from './table.mjs'

export const title = 'Lighthouse, mobile'

const pages = ['/', '/conference/Resilience']
const categories = ['performance', 'accessibility', 'best-practices', 'seo']
const targets = { performance: 95, accessibility: 100 }

export async function run({ baseUrl }) {
  if (!chromiumIsInstalled()) {
    console.log(`Skipped: no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH).`)
    return
  }
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumFlags] })
  const rows = []
  try {
    for (const pathname of pages) {
      const result = await lighthouse(new URL(pathname, baseUrl).href, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: categories,
      })
      const scores = result?.lhr.categories ?? {}
      rows.push([
        pathname,
        ...categories.map((category) => {
          const score = scores[category]?.score
          if (score === null || score === undefined) return 'n/a'
          const value = Math.round(score * 100)
          const target = targets[category]
          if (target === undefined) return String(value)
          return `${value} ${value >= target ? '>=' : '<'} ${target} ${value >= target ? 'ok' : 'MISSED'}`
        }),
      ])
    }
  } finally {
    chrome.kill()
  }
  printTable(['page', ...categories], rows)
  console.log(`\nTargets: performance >= ${targets.performance}, accessibility ${targets.accessibility}.`)
}
