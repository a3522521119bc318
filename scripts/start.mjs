// `pnpm start`: builds the site when the build is missing or older than its sources, then serves it.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { repoRoot, siteBuildIsStale, buildSite, siteNodeOptions } from '../tests/support/site-server.ts'

if (siteBuildIsStale()) {
  console.log('Building the site…')
  buildSite()
}

const server = spawn(process.execPath, [...siteNodeOptions, path.join(repoRoot, 'apps/site/server.js')], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
