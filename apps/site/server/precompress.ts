import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

// Text the browser fetches; fonts and images are compressed formats already.
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|xml|txt|webmanifest)$/
// Below this a compressed copy saves less than the headers it costs.
const MIN_BYTES = 1024

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name))
}

/**
 * Writes `name.br` (brotli, best quality) and `name.gz` (gzip -9) beside every text file of at least 1 KB under the
 * directory, each only where it is smaller than the file. Returns the files written.
 */
export async function precompressDirectory(directory: string): Promise<string[]> {
  const written: string[] = []
  const files = (await filesUnder(directory)).filter((file) => COMPRESSIBLE.test(file))
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return
      const content = await readFile(file)
      const [br, gz] = await Promise.all([
        brotli(content, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        gzipped(content, { level: 9 }),
      ])
      for (const [suffix, compressed] of [
        ['.br', br],
        ['.gz', gz],
      ] as const) {
        if (compressed.length >= content.length) continue
        await writeFile(file + suffix, compressed)
        written.push(file + suffix)
      }
    }),
  )
  return written
}

/** The client build's files compressed once at build time, so the server sends them as they are (express-static-gzip). */
export function precompressPlugin(): Plugin {
  return {
    name: 'events:precompress',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options) {
      if (options.dir) await precompressDirectory(options.dir)
    },
  }
}
