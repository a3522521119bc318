import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { precompressDirectory } from './precompress'

let directory: string
afterEach(() => rmSync(directory, { recursive: true, force: true }))

describe('precompressDirectory', () => {
  it('writes a brotli and a gzip copy beside each text file of 1 KB or more, in subdirectories too, and nothing else', async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'precompress-'))
    mkdirSync(path.join(directory, 'assets'))
    const script = 'export const words = ' + JSON.stringify(Array.from({ length: 400 }, (_, index) => `word-${index}`)) + '\n'
    writeFileSync(path.join(directory, 'assets/app-1a2b.js'), script)
    writeFileSync(path.join(directory, 'assets/small.css'), 'body{margin:0}')
    writeFileSync(path.join(directory, 'assets/font.woff2'), Buffer.alloc(4096, 7))
    const written = await precompressDirectory(directory)
    expect(written.map((file) => path.relative(directory, file)).sort()).toEqual(['assets/app-1a2b.js.br', 'assets/app-1a2b.js.gz'])
    expect(brotliDecompressSync(readFileSync(path.join(directory, 'assets/app-1a2b.js.br'))).toString()).toBe(script)
    expect(gunzipSync(readFileSync(path.join(directory, 'assets/app-1a2b.js.gz'))).toString()).toBe(script)
    expect(existsSync(path.join(directory, 'assets/small.css.br'))).toBe(false)
    expect(existsSync(path.join(directory, 'assets/font.woff2.gz'))).toBe(false)
  })

  it('keeps no compressed copy that would be larger than the file', async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'precompress-'))
    // Random bytes do not compress.
    writeFileSync(path.join(directory, 'noise.txt'), Buffer.from(Array.from({ length: 2048 }, () => Math.floor(Math.random() * 256))))
    expect(await precompressDirectory(directory)).toEqual([])
  })
})
