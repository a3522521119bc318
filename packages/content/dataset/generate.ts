// Writes production.ndjson and images/*.svg from the content files in source/.
// Run with `pnpm --filter @events/content generate:dataset` after editing the content.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDataset, DATASET_FILE, toNdjson } from './build.ts'

const datasetDir = path.dirname(fileURLToPath(import.meta.url))
const imagesDir = path.join(datasetDir, 'images')
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
