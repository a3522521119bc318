// `pnpm start`: builds the site when the build is missing or older than its sources (showing its progress), then
// serves it with the production command, scripts/serve.
import { spawn, spawnSync } from 'node:child_process'
import path from 'node:path'
import { repoRoot, siteBuildIsStale } from './site-build.ts'

if (siteBuildIsStale()) {
  const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build-site.mjs')], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(1)
}

const server = spawn(path.join(repoRoot, 'scripts/serve'), [], { cwd: repoRoot, stdio: 'inherit', env: { NODE_ENV: 'production', ...process.env } })
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
