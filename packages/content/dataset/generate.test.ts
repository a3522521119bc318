import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const datasetDir = path.dirname(fileURLToPath(import.meta.url))
let copyDir: string
let watcher: ChildProcess | undefined
let output = ''

// A copy of the generator and its sources, so the test edits neither the real sources nor the committed dataset.
beforeEach(async () => {
  copyDir = await mkdtemp(path.join(tmpdir(), 'dataset-watch-'))
  for (const entry of ['build.ts', 'generate.ts', 'watchSources.ts', 'source']) {
    await cp(path.join(datasetDir, entry), path.join(copyDir, entry), { recursive: true })
  }
})

afterEach(async () => {
  if (watcher && watcher.exitCode === null) {
    watcher.kill('SIGTERM')
    await once(watcher, 'exit')
  }
  watcher = undefined
  output = ''
  await rm(copyDir, { recursive: true, force: true })
})

function startWatching(): void {
  watcher = spawn(process.execPath, [path.join(copyDir, 'generate.ts'), '--watch'], { cwd: copyDir })
  watcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  watcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
}

async function waitFor(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (await condition()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`Timed out waiting for ${what}. Output:\n${output}`)
}

const generatedDataset = () => readFile(path.join(copyDir, 'production.ndjson'), 'utf8')
const generations = () => output.match(/^Wrote \d+ documents/gm)?.length ?? 0

describe('generate:dataset --watch', () => {
  it('regenerates the NDJSON when a source file is saved, once per burst of saves, and survives a broken edit', async () => {
    const settingsPath = path.join(copyDir, 'source/settings.ts')
    const settings = await readFile(settingsPath, 'utf8')
    expect(settings).toContain("siteName: 'Summit Business Events'")

    startWatching()
    await waitFor('the first generation and the watch', () => output.includes('Watching source for changes'))
    expect(generations()).toBe(1)
    expect(await generatedDataset()).toContain('"siteName":"Summit Business Events"')

    // An editor's save can be several writes in a row: one regeneration follows.
    for (const name of ['Summit Events', 'Summit Events Africa', 'Summit Events SA']) {
      await writeFile(settingsPath, settings.replace("siteName: 'Summit Business Events'", `siteName: '${name}'`))
    }
    await waitFor('the regenerated dataset', async () => (await generatedDataset()).includes('"siteName":"Summit Events SA"'))
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(generations()).toBe(2)

    await writeFile(settingsPath, `${settings}\nexport const broken = (\n`)
    await waitFor('the failed generation', () => output.includes('generate:dataset failed; the dataset is unchanged until the next save'))
    expect(await generatedDataset()).toContain('"siteName":"Summit Events SA"')

    await writeFile(settingsPath, settings.replace("siteName: 'Summit Business Events'", "siteName: 'Summit Events, fixed'"))
    await waitFor('the dataset after the fix', async () => (await generatedDataset()).includes('"siteName":"Summit Events, fixed"'))
    expect(watcher?.exitCode).toBeNull()
  }, 90_000)

  it('ignores test files beside the sources', async () => {
    startWatching()
    await waitFor('the first generation and the watch', () => output.includes('Watching source for changes'))
    await writeFile(path.join(copyDir, 'source/images.test.ts'), '// edited\n')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(generations()).toBe(1)
  }, 60_000)
})
