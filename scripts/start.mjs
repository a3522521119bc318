// `pnpm start`: builds the site when the build is missing or older than its sources, then serves it.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const site = path.join(root, 'apps/site')
const builtServer = path.join(site, 'build/server/index.js')
const sourceDirs = ['apps/site/app', 'apps/site/server', 'packages/content/src', 'packages/pricing/src', 'packages/core/src']
const ignored = new Set(['node_modules', 'build', '.react-router'])

function newestSourceTime(directory) {
  if (!existsSync(directory)) return 0
  let newest = 0
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (ignored.has(entry.name)) continue
    const entryPath = path.join(directory, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(entryPath) : statSync(entryPath).mtimeMs)
  }
  return newest
}

const sourceTime = Math.max(...sourceDirs.map((directory) => newestSourceTime(path.join(root, directory))))
if (!existsSync(builtServer) || statSync(builtServer).mtimeMs < sourceTime) {
  console.log('Building the site…')
  const build = spawnSync('pnpm', ['--filter', '@events/site', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const server = spawn(process.execPath, [path.join(site, 'server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
