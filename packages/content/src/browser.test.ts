import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// The content client stays on the server too: the browser reads content through the site, never from Sanity.
const SERVER_ONLY = [/^node:/, /^groq-js$/, /^image-size$/, /^@sanity\/client$/]

// Follows the package's own imports from a module and collects every bare specifier they reach.
async function bareImportsReachableFrom(entry: URL, seen = new Set<string>()): Promise<Set<string>> {
  const bare = new Set<string>()
  if (seen.has(entry.href)) return bare
  seen.add(entry.href)
  const source = await readFile(fileURLToPath(entry), 'utf8')
  for (const [, specifier = ''] of source.matchAll(/^(?:import|export)\s(?!type\s)[^'"]*?from\s+'([^']+)'/gm)) {
    if (specifier.startsWith('.')) {
      for (const nested of await bareImportsReachableFrom(new URL(specifier, entry), seen)) bare.add(nested)
    } else {
      bare.add(specifier)
    }
  }
  return bare
}

it('keeps the browser entry free of server-only modules and the content client', async () => {
  const imports = [...(await bareImportsReachableFrom(new URL('./browser.ts', import.meta.url)))]
  expect(imports).toContain('groq')
  expect(imports.filter((specifier) => SERVER_ONLY.some((pattern) => pattern.test(specifier)))).toEqual([])
})

it('offers the browser entry under the "browser" export condition', async () => {
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))
  expect(manifest.exports['.']).toEqual({ browser: './src/browser.ts', default: './src/index.ts' })
})
