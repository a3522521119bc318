import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const coreEntry = fileURLToPath(new URL('./index.ts', import.meta.url))

// Records every module a fresh Node loads while importing the core, CommonJS and ES modules alike.
const listLoadedModules = `
import { registerHooks } from 'node:module'
const loaded = []
registerHooks({ load(url, context, nextLoad) { loaded.push(url); return nextLoad(url, context) } })
await import(${JSON.stringify(coreEntry)})
console.log(JSON.stringify(loaded))
`

describe('the core as the site loads it', () => {
  it('leaves the libraries of exports, PDFs and holidays unloaded until they are first used', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '--eval', listLoadedModules], { encoding: 'utf8' })
    const packages = new Set((JSON.parse(output) as string[]).map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(url)?.[1]))
    for (const name of ['exceljs', 'pdfkit', 'fontkit', 'date-holidays']) expect(packages, name).not.toContain(name)
    expect(packages).toContain('luxon')
  })
})
