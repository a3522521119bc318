// `pnpm build:site` (and `pnpm start` when the build is stale): builds the site with React Router's build, showing
// its progress as it goes, and says how long it took.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { repoRoot } from './site-build.ts'

const startedAt = performance.now()
console.log('Building the site: the browser bundle, the server build, precompressed files and social images, then the bundled server…')
const result = spawnSync('pnpm', ['run', 'build'], {
  cwd: path.join(repoRoot, 'apps/site'),
  // Vite prints each step; React's production build is bundled whatever the caller's NODE_ENV.
  env: { ...process.env, NODE_ENV: 'production' },
  stdio: 'inherit',
})
if (result.status !== 0) {
  console.error(`The site's build failed (exit ${result.status ?? result.signal}).`)
  process.exit(1)
}
console.log(`Site built in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`)
