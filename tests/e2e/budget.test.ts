// Visitors are often on phones paying for mobile data: the JavaScript a page loads up front is capped.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, expect, inject, it } from 'vitest'
import { javaScriptBudget, kilobytes, measurePageWeight, type PageWeight } from '../support/page-weight.ts'
import { contentPages } from '../support/routes.ts'
import { repoRoot } from '../support/site-server.ts'

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

it.each(contentPages)(`%s loads at most ${kilobytes(javaScriptBudget)} of gzipped JavaScript`, async (pathname) => {
  const weight = await measurePageWeight(inject('baseUrl'), pathname)
  measured.push(weight)
  expect(weight.scripts.length, 'the page should load its hydration scripts').toBeGreaterThan(0)
  expect(
    weight.jsGzip,
    `${pathname} loads ${kilobytes(weight.jsGzip)} of gzipped JavaScript:\n` +
      weight.scripts.map((script) => `  ${kilobytes(script.gzip)}  ${script.url}`).join('\n'),
  ).toBeLessThanOrEqual(javaScriptBudget)
})

// The browser reads content through the site: no script it can load, up front or later, carries the Sanity client.
it('ships no Sanity client and no query endpoint address in any of the site’s JavaScript', async () => {
  const assetsDir = path.join(repoRoot, 'apps/site/build/client/assets')
  const scripts = (await readdir(assetsDir)).filter((name) => name.endsWith('.js'))
  expect(scripts.length).toBeGreaterThan(0)
  const carriers: string[] = []
  for (const name of scripts) {
    const source = await readFile(path.join(assetsDir, name), 'utf8')
    if (/apicdn\.sanity\.io|useProjectHostname|\/data\/query/.test(source)) carriers.push(name)
  }
  expect(carriers).toEqual([])
})
