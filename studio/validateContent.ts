// `pnpm content:validate [FILE]`: runs the studio's content rules over an NDJSON dataset, the shipped one by
// default. Exits 1 when there is an error; warnings are listed but do not fail.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatProblem, parseNdjson, validateContent } from './lib/contentValidation.ts'

const shippedDataset = fileURLToPath(new URL('../packages/content/dataset/production.ndjson', import.meta.url))
// pnpm runs scripts from the repository root; INIT_CWD is where the command was typed.
const workingDirectory = process.env.INIT_CWD ?? process.cwd()
const file = path.resolve(workingDirectory, process.argv[2] ?? shippedDataset)
const fileName = process.argv[2] ?? path.relative(workingDirectory, file)

const documents = parseNdjson(await readFile(file, 'utf8'))
const problems = validateContent(documents)
for (const problem of problems) console.log(formatProblem(problem))
const errors = problems.filter((problem) => problem.level === 'error').length
const warnings = problems.length - errors
console.log(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'} in ${documents.length} documents of ${fileName}`)
process.exitCode = errors > 0 ? 1 : 0
