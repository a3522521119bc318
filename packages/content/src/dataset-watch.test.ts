import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { watchDataset, type DatasetWatch } from './dataset-watch.ts'

let directory: string
let watcher: DatasetWatch | undefined

afterEach(() => {
  watcher?.close()
  rmSync(directory, { recursive: true, force: true })
})

function changes(datasetPath: string) {
  let count = 0
  watcher = watchDataset(datasetPath, () => (count += 1), { settleMs: 20 })
  return () => count
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 200))

describe('watchDataset', () => {
  it('tells a file written in place once, and a file replaced by a rename', async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'dataset-watch-'))
    const datasetPath = path.join(directory, 'production.ndjson')
    writeFileSync(datasetPath, '{"_id":"a","_type":"page"}\n')
    const count = changes(datasetPath)
    writeFileSync(datasetPath, '{"_id":"a","_type":"page","title":"Changed"}\n')
    await expect.poll(count).toBe(1)
    await settled()
    expect(count()).toBe(1)
    writeFileSync(path.join(directory, 'next.ndjson'), '{"_id":"b","_type":"page"}\n')
    renameSync(path.join(directory, 'next.ndjson'), datasetPath)
    await expect.poll(count).toBe(2)
  })

  it('ignores other files in the directory and stops when closed', async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'dataset-watch-'))
    const datasetPath = path.join(directory, 'production.ndjson')
    writeFileSync(datasetPath, '{}\n')
    const count = changes(datasetPath)
    writeFileSync(path.join(directory, 'image.svg'), '<svg/>')
    await settled()
    expect(count()).toBe(0)
    watcher?.close()
    writeFileSync(datasetPath, '{"changed":true}\n')
    await settled()
    expect(count()).toBe(0)
  })
})
