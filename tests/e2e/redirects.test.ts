import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repoRoot, startSite, type RunningSite } from '../support/site-server.ts'

// The PFAS conference published under a new slug, as the studio's Publish leaves it: the event with its new slug, a
// redirect from the old address, and an older redirect that pointed at the old one. Two redirects that loop.
const redirects = [
  { _id: 'redirect-pfas', _type: 'redirect', from: '/conference/pfas', to: '/conference/pfas-2025' },
  { _id: 'redirect-older', _type: 'redirect', from: '/conference/OldPfas', to: '/conference/pfas' },
  { _id: 'redirect-loop-a', _type: 'redirect', from: '/workshop/a', to: '/workshop/b' },
  { _id: 'redirect-loop-b', _type: 'redirect', from: '/workshop/b', to: '/workshop/a' },
]

let workDir: string
let site: RunningSite

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'redirects-'))
  await cp(path.join(repoRoot, 'packages/content/dataset'), workDir, { recursive: true })
  const datasetPath = path.join(workDir, 'production.ndjson')
  const shipped = await readFile(datasetPath, 'utf8')
  const renamed = shipped.replace('"slug":{"_type":"slug","current":"pfas"}', '"slug":{"_type":"slug","current":"pfas-2025"}')
  expect(renamed).not.toBe(shipped)
  await writeFile(datasetPath, `${renamed.trimEnd()}\n${redirects.map((redirect) => JSON.stringify(redirect)).join('\n')}\n`)
  site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath } })
})

afterAll(async () => {
  await site?.stop()
  await rm(workDir, { recursive: true, force: true })
})

async function answer(pathname: string) {
  const response = await fetch(`${site.baseUrl}${pathname}`, { redirect: 'manual', signal: AbortSignal.timeout(30_000) })
  return { status: response.status, location: response.headers.get('location') }
}

describe('redirects of renamed events', () => {
  it.each([
    ['/conference/pfas', '/conference/pfas-2025'],
    ['/conference/pfas?tab=agenda', '/conference/pfas-2025?tab=agenda'],
    ['/conference/pfas/contact', '/conference/pfas-2025/contact'],
    ['/conference/pfas/calendar.ics', '/conference/pfas-2025/calendar.ics'],
    ['/conference/OldPfas', '/conference/pfas-2025'],
    ['/conference/oldpfas/contact?interest=Sponsorship', '/conference/pfas-2025/contact?interest=Sponsorship'],
  ])('%s answers 301 to %s in one hop', async (from, to) => {
    expect(await answer(from)).toEqual({ status: 301, location: to })
  })

  it('serves the event at its new address', async () => {
    expect(await answer('/conference/pfas-2025')).toEqual({ status: 200, location: null })
    expect((await answer('/conference/pfas-2025/calendar.ics')).status).toBe(200)
  })

  it('answers 404 for a redirect loop and for paths no redirect names', async () => {
    expect((await answer('/workshop/a')).status).toBe(404)
    expect((await answer('/conference/never-was')).status).toBe(404)
    expect((await answer('/conference/never-was/contact')).status).toBe(404)
  })
})
