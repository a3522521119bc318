// Writes production.ndjson and images/*.svg from the content files in source/.
// Run with `pnpm --filter @events/content generate:dataset` after editing the content, or with `--watch` to
// regenerate on every save.
import { spawn } from 'node:child_process'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDataset, DATASET_FILE, toNdjson } from './build.ts'
import { watchSources } from './watchSources.ts'

const datasetDir = path.dirname(fileURLToPath(import.meta.url))
const imagesDir = path.join(datasetDir, 'images')
const sourceDir = path.join(datasetDir, 'source')

async function writeDataset(): Promise<void> {
  const { documents, images } = buildDataset()
  await mkdir(imagesDir, { recursive: true })
  const wanted = new Set(images.map((image) => image.file))
  // Images no document uses any more would be uploaded by a folder import, so they are removed.
  for (const file of await readdir(imagesDir)) {
    if (!wanted.has(file)) await rm(path.join(imagesDir, file))
  }
  await Promise.all(images.map((image) => writeFile(path.join(imagesDir, image.file), image.svg)))
  await writeFile(path.join(datasetDir, DATASET_FILE), toNdjson(documents))
  console.log(`Wrote ${documents.length} documents and ${images.length} images to ${path.relative(process.cwd(), datasetDir) || '.'}`)
}

// Each generation runs in a fresh Node process: modules imported once stay cached, so an edited source file would
// not be read again in this one. A broken edit fails that run only; the files stay as the last good run wrote them.
function generateInChildProcess(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: 'inherit' })
    child.once('exit', (code) => {
      if (code !== 0) console.error('generate:dataset failed; the dataset is unchanged until the next save')
      resolve()
    })
  })
}

if (process.argv.includes('--watch')) {
  await generateInChildProcess()
  console.log(`Watching ${path.relative(process.cwd(), sourceDir) || sourceDir} for changes (Ctrl-C stops)`)
  watchSources({
    dir: sourceDir,
    include: (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    run: generateInChildProcess,
  })
} else {
  await writeDataset()
}
