// `pnpm content:validate [FILE...]`: the Studio's own validation (its schema, with every content rule of lib/rules.ts,
// required fields, references, alt text and unique slugs) over NDJSON datasets, the shipped one by default. It runs
// through `sanity exec`, which loads the schema as the Studio does. Exits 1 when a file has an error; warnings are
// listed but do not fail.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatMarker, validateDatasetFile } from './lib/datasetValidation.ts'

const shippedDataset = fileURLToPath(new URL('../packages/content/dataset/production.ndjson', import.meta.url))
// pnpm runs the script from studio/; INIT_CWD is where the command was typed.
const workingDirectory = process.env.INIT_CWD ?? process.cwd()
const named = process.argv.slice(2).filter((argument) => argument !== '--')
const files = named.length === 0 ? [shippedDataset] : named.map((file) => path.resolve(workingDirectory, file))

let failed = false
for (const file of files) {
  const { documents, markers } = await validateDatasetFile(file)
  for (const marker of markers) console.log(formatMarker(marker))
  const errors = markers.filter((marker) => marker.level === 'error').length
  const warnings = markers.length - errors
  const name = named.length === 0 ? path.relative(workingDirectory, file) : file
  console.log(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${documents} documents of ${name}`)
  failed ||= errors > 0
}
process.exitCode = failed ? 1 : 0
