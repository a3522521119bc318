// `pnpm dev`: the site and the studio side by side. Without a Sanity project the studio edits the site's content on
// this computer: a stand-in of Sanity's API (studio/localApi) holds a working copy of the shipped dataset, writes
// every change back to that file, and the site reads the same file, so what an editor publishes shows on the site
// a moment later, with no account and no network.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureWorkingCopy } from '../studio/localApi/datasetFile.ts'
import { LOCAL_PROJECT_ID, startLocalContentApi } from '../studio/localApi/startLocalApi.ts'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const LOCAL_API_PORT = Number(process.env.LOCAL_CONTENT_API_PORT || 3334)
// The site's and the studio's ports, from the environment like every other setting.
const SITE_PORT = process.env.PORT || '3000'
const STUDIO_PORT = process.env.STUDIO_PORT || '3333'

/** A path as the developer would type it: from the repository root when inside it. */
function shown(target) {
  const relative = path.relative(repoRoot, target)
  return relative.startsWith('..') ? target : relative
}

function configuredProjectId() {
  if (process.env.SANITY_STUDIO_PROJECT_ID) return process.env.SANITY_STUDIO_PROJECT_ID
  const envFile = path.join(repoRoot, 'studio/.env.local')
  if (!existsSync(envFile)) return undefined
  return /^SANITY_STUDIO_PROJECT_ID=(.+)$/m.exec(readFileSync(envFile, 'utf8'))?.[1]?.trim() || undefined
}

/** @type {Record<string, string>} */
const env = {
  PORT: SITE_PORT,
  STUDIO_PORT,
  // Each side finds the other on its port: the studio's previews open the site, the site lets the studio frame it.
  SANITY_STUDIO_PREVIEW_URL: process.env.SANITY_STUDIO_PREVIEW_URL || `http://localhost:${SITE_PORT}`,
  SANITY_STUDIO_URL: process.env.SANITY_STUDIO_URL || `http://localhost:${STUDIO_PORT}`,
}
/** @type {import('../studio/localApi/contentLake.ts').ContentLake | undefined} */
let lake
if (!configuredProjectId()) {
  const workingDir = path.resolve(repoRoot, process.env.LOCAL_CONTENT_DIR || '.local-content')
  const datasetPath = ensureWorkingCopy(path.join(repoRoot, 'packages/content/dataset'), workingDir)
  lake = await startLocalContentApi({ datasetPath, port: LOCAL_API_PORT })
  const trustUrl = lake.apiHost.replace('://', `://${LOCAL_PROJECT_ID}.`)
  Object.assign(env, {
    CONTENT_DATASET_PATH: datasetPath,
    SANITY_STUDIO_PROJECT_ID: LOCAL_PROJECT_ID,
    SANITY_STUDIO_API_HOST: lake.apiHost,
    SANITY_STUDIO_LOCAL_CONTENT: shown(datasetPath),
  })
  console.log(
    [
      'No Sanity project: the studio edits the content on this computer.',
      `  Content:  ${shown(datasetPath)} (a copy of the shipped dataset; delete ${shown(workingDir)}/ to start again)`,
      `  Studio:   http://localhost:${STUDIO_PORT}   Site: http://localhost:${SITE_PORT}`,
      `  Once per browser session, open ${trustUrl}/ and accept its certificate (made on this computer), then open the studio.`,
    ].join('\n'),
  )
}

const servers = spawn('pnpm', ['--parallel', '--filter', '@events/site', '--filter', '@events/studio', 'dev'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, ...env },
})
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => servers.kill(signal))
servers.on('exit', async (code) => {
  await lake?.stop()
  process.exit(code ?? 0)
})
