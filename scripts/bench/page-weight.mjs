// Transfer size of each page's first load: HTML, CSS and JavaScript, gzip-compressed.
import { javaScriptBudget, kilobytes, measurePageWeight } from '../../tests/support/page-weight.ts'
import { contentPages } from '../../tests/support/routes.ts'
import { printTable } from './table.mjs'

export const title = 'Page weight on first load (gzip)'

export async function run({ baseUrl }) {
  const rows = []
  for (const pathname of contentPages) {
    const weight = await measurePageWeight(baseUrl, pathname)
    rows.push([
      pathname,
      kilobytes(weight.htmlGzip),
      kilobytes(weight.cssGzip),
      kilobytes(weight.jsGzip),
      kilobytes(weight.htmlGzip + weight.cssGzip + weight.jsGzip),
      weight.jsGzip > javaScriptBudget ? 'over' : 'ok',
    ])
  }
  printTable(['page', 'HTML', 'CSS', 'JS', 'total', `JS budget ${kilobytes(javaScriptBudget)}`], rows)
}
