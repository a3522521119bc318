// `pnpm start`: builds the site when the build is missing or older than its sources (showing its progress), then
// replaces itself with the production command, scripts/serve, which replaces itself with Node running the server. So
// the process pnpm started *is* the server, and the SIGTERM pnpm passes on when it is stopped reaches it (package.json
// starts this file with the pinned Node through `exec`, since the `node` pnpm puts on PATH is a shell script that
// does not pass signals on).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { repoRoot, siteBuildIsStale } from './site-build.ts'

if (siteBuildIsStale()) {
  const build = spawn(process.execPath, [path.join(repoRoot, 'scripts/build-site.mjs')], { stdio: 'inherit' })
  const forward = (/** @type {NodeJS.Signals} */ signal) => build.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  const [code] = await once(build, 'exit')
  // A build that failed or was stopped by a signal (code null): nothing to serve.
  if (code !== 0) process.exit(1)
  process.off('SIGINT', forward)
  process.off('SIGTERM', forward)
}

const serve = path.join(repoRoot, 'scripts/serve')
const execve = /** @type {NodeJS.Process['execve'] & {}} */ (process.execve)
execve(serve, [serve], { NODE_ENV: 'production', ...process.env })
