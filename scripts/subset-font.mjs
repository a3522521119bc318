// Cuts the site's typeface from @fontsource-variable/inter's latin file to the weights and characters the site uses
// (apps/site/app/lib/body-font-subset.ts), into apps/site/app/fonts/: about a third fewer bytes on every first visit,
// the file Lighthouse finds on a page's critical path. Run it after changing either, or after updating the package:
//   pnpm font:subset
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import subsetFont from 'subset-font'
import { BODY_FONT_WEIGHTS, bodyFontCodePoints } from '../apps/site/app/lib/body-font-subset.ts'

const source = createRequire(import.meta.url).resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')
const target = new URL('../apps/site/app/fonts/inter-latin-wght-400-800.woff2', import.meta.url)
const original = readFileSync(source)
const subset = await subsetFont(original, String.fromCodePoint(...bodyFontCodePoints()), {
  targetFormat: 'woff2',
  variationAxes: { wght: BODY_FONT_WEIGHTS },
})
writeFileSync(target, subset)
console.log(`${target.pathname}: ${subset.length} bytes (from ${original.length})`)
