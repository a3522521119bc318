// `pnpm content:pull [--out DIR]`: copies the Sanity project's dataset named by SANITY_PROJECT_ID and SANITY_DATASET
// (SANITY_API_READ_TOKEN for a private one) into DIR, by default over the shipped dataset in this folder.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { pullDataset, pullOptionsFromEnv } from './pullDataset.ts'

const shippedDatasetDir = path.dirname(fileURLToPath(import.meta.url))

try {
  const { values } = parseArgs({ options: { out: { type: 'string' } } })
  // INIT_CWD is where `pnpm content:pull` was typed; pnpm runs the script itself from the repository root.
  const outDir = values.out ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out) : shippedDatasetDir
  const options = pullOptionsFromEnv(process.env, outDir)
  console.log(`Pulling dataset "${options.dataset}" of project ${options.projectId}…`)
  const { documents, files, datasetPath } = await pullDataset(options)
  console.log(`Wrote ${documents} documents and ${files} images and files to ${path.relative(process.cwd(), datasetPath) || datasetPath}`)
  if (outDir !== shippedDatasetDir) {
    console.log(`Run the site on it with CONTENT_DATASET_PATH=${datasetPath} pnpm start`)
  }
} catch (error) {
  console.error(`content:pull: ${(error as Error).message}`)
  process.exitCode = 1
}
