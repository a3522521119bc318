// `pnpm db:migrate`, `pnpm admin`, `pnpm backup` and `pnpm restore`: the operator's commands. Where the site's build
// is current they run from the bundle built beside the server (`scripts/serve --migrate` …), which starts in a
// fraction of the time on a busy machine; where it is missing or older than the sources (while developing), from
// the sources, so an old bundle never skips a new migration.
//   node scripts/command.mjs migrate|admin|backup|restore [arguments]
import path from 'node:path'
import { repoRoot, siteBuildIsStale } from './site-build.ts'

const COMMANDS = ['migrate', 'admin', 'backup', 'restore']
const [command = '', ...args] = process.argv.slice(2)
if (!COMMANDS.includes(command)) {
  console.error(`scripts/command.mjs: unknown command "${command}" (one of ${COMMANDS.join(', ')})`)
  process.exit(64)
}
const [file, ...argv] = siteBuildIsStale()
  ? [process.execPath, path.join(repoRoot, 'scripts', `${command}.mjs`), ...args]
  : [path.join(repoRoot, 'scripts/serve'), `--${command}`, ...args]
// Replaced rather than started as a child: the command's input (a password), output and exit status are its own.
const execve = /** @type {NodeJS.Process['execve'] & {}} */ (process.execve)
execve(file, [file, ...argv], process.env)
