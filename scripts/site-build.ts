// Where the repository is and whether the site's build is older than its sources: for `pnpm start`, `pnpm build:site`
// and the tests' site servers alike.
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('..', import.meta.url))
// The build's last file: the bundled server (apps/site/bundle-server.mjs).
const serverEntry = path.join(repoRoot, 'apps/site/build/bundle/server.mjs')

const buildInputs = [
  'apps/site/app',
  'apps/site/server',
  'apps/site/public',
  'apps/site/vite.config.ts',
  'apps/site/react-router.config.ts',
  'apps/site/package.json',
  'apps/site/server.js',
  'apps/site/bundle-server.mjs',
  'packages',
  // The commands bundled with the server.
  'scripts/migrate.mjs',
  'scripts/admin.mjs',
  'scripts/backup.mjs',
  'scripts/restore.mjs',
]

function newestModification(target: string): number {
  if (!existsSync(target)) return 0
  const stats = statSync(target)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    newest = Math.max(newest, newestModification(path.join(target, entry.name)))
  }
  return newest
}

/** True when the site has no build or a source file changed after the last build. */
export function siteBuildIsStale(): boolean {
  if (!existsSync(serverEntry)) return true
  const builtAt = statSync(serverEntry).mtimeMs
  return buildInputs.some((input) => newestModification(path.join(repoRoot, input)) > builtAt)
}
