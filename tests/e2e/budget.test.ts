// Visitors are often on phones paying for mobile data: the JavaScript a page loads up front is capped.
import { afterAll, expect, inject, it } from 'vitest'
import { kilobytes, measurePageWeight, type PageWeight } from '../support/page-weight.ts'
import { contentPages } from '../support/routes.ts'

const javaScriptBudget = 120 * 1024
const measured: PageWeight[] = []

afterAll(() => {
  if (measured.length === 0) return
  const rows = measured.map((weight) => ({
    page: weight.pathname,
    'JS gzip': kilobytes(weight.jsGzip),
    files: weight.scripts.length,
    'of budget': `${Math.round((weight.jsGzip / javaScriptBudget) * 100)}%`,
  }))
  console.log(`JavaScript loaded by the initial HTML (budget ${kilobytes(javaScriptBudget)} gzip):`)
  console.table(rows)
})

it.each(contentPages)('%s loads at most 120 KB of gzipped JavaScript', async (pathname) => {
  const weight = await measurePageWeight(inject('baseUrl'), pathname)
  measured.push(weight)
  expect(weight.scripts.length, 'the page should load its hydration scripts').toBeGreaterThan(0)
  expect(
    weight.jsGzip,
    `${pathname} loads ${kilobytes(weight.jsGzip)} of gzipped JavaScript:\n` +
      weight.scripts.map((script) => `  ${kilobytes(script.gzip)}  ${script.url}`).join('\n'),
  ).toBeLessThanOrEqual(javaScriptBudget)
})
