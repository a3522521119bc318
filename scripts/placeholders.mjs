// Prints the placeholder values that remain in the shipped dataset (run after `pnpm build`).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatPlaceholderReport, listPlaceholders } from '../packages/content/src/placeholders.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const datasetPath = path.join(root, 'packages/content/dataset/production.ndjson')
const documents = readFileSync(datasetPath, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
console.log(formatPlaceholderReport(listPlaceholders(documents)))
