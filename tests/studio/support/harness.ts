// The studio in Chromium, offline: `sanity dev` pointed at the local stand-in of Sanity's API (studio/localApi), and
// one browser whose requests for `<project>.localhost` reach it. Either the stand-in holds the shipped dataset in
// memory (changed by the test file's seed), or, `withSite`, it runs as `pnpm dev` runs it: over a working copy of
// the dataset file, which it writes back after every change, with the built site reading that file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { SanityDocument } from '@events/content'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startContentLake, type ContentLake } from '../../../studio/localApi/contentLake.ts'
import { ensureWorkingCopy, readLakeDataset } from '../../../studio/localApi/datasetFile.ts'
import { LOCAL_PROJECT_ID, startLocalContentApi } from '../../../studio/localApi/startLocalApi.ts'
import { assertChromiumInstalled, chromiumFlags, chromiumPath } from '../../support/chromium.ts'
import { ensureSiteBuild, freePort, repoRoot, startSite, type RunningSite } from '../../support/site-server.ts'
import { startStudioDevServer, type RunningStudio } from '../../support/studio-server.ts'

const shippedDatasetDir = path.join(repoRoot, 'packages/content/dataset')

/** Whether a URL's host is this machine: 127.0.0.1, ::1, localhost or a name under it (mapped to 127.0.0.1). */
function isLoopback(url: URL): boolean {
  if (url.protocol === 'data:' || url.protocol === 'blob:') return true
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.endsWith('.localhost')
}

export interface StudioHarness {
  lake(): ContentLake
  /** A new page (its own context) at a path of the studio, e.g. `structure/events`. */
  open(studioPath: string): Promise<Page>
  /** The studio's address (its dev server). */
  studioUrl(): string
  /** Every request a page made to a host off this machine (refused, so none left it), in the order made. */
  outsideRequests(): string[]
  /** `withSite` only: the site reading the dataset file the stand-in writes, and that file. */
  site(): { baseUrl: string; datasetPath: string }
}

export interface StudioHarnessOptions {
  /** Run the stand-in over a working copy of the dataset file and start the built site on it (the seed is not used). */
  withSite?: boolean
}

/**
 * Starts the stand-in, the studio (and the site) and Chromium before the file's first test and stops them after its
 * last. `seed` changes the shipped documents first (a draft to publish, a price that breaks a rule).
 */
export function useStudioHarness(
  seed: (documents: SanityDocument[]) => SanityDocument[] = (documents) => documents,
  { withSite = false }: StudioHarnessOptions = {},
): StudioHarness {
  let lake: ContentLake | undefined
  let studio: RunningStudio | undefined
  let site: RunningSite | undefined
  let browser: Browser | undefined
  let workingDir: string | undefined
  let datasetPath: string | undefined
  const outside: string[] = []

  beforeAll(async () => {
    assertChromiumInstalled()
    const studioEnv: Record<string, string> = { SANITY_STUDIO_PROJECT_ID: LOCAL_PROJECT_ID }
    let studioPort: number | undefined
    if (withSite) {
      ensureSiteBuild()
      workingDir = mkdtempSync(path.join(tmpdir(), 'local-content-'))
      datasetPath = ensureWorkingCopy(shippedDatasetDir, workingDir)
      lake = await startLocalContentApi({ datasetPath })
      studioPort = await freePort()
      // The site lets only the studio's origin frame its draft previews (the Presentation tool).
      site = await startSite({ env: { CONTENT_DATASET_PATH: datasetPath, SANITY_STUDIO_URL: `http://127.0.0.1:${studioPort}` } })
      Object.assign(studioEnv, {
        SANITY_STUDIO_PREVIEW_URL: site.baseUrl,
        SANITY_STUDIO_SITE_URL: site.baseUrl,
        SANITY_STUDIO_LOCAL_CONTENT: 'production.ndjson',
      })
    } else {
      const { documents, images } = await readLakeDataset(path.join(shippedDatasetDir, 'production.ndjson'))
      lake = await startContentLake({ documents: seed(documents), images })
    }
    ;[studio, browser] = await Promise.all([
      startStudioDevServer({ ...studioEnv, SANITY_STUDIO_API_HOST: lake.apiHost }, { port: studioPort }),
      chromium.launch({
        executablePath: chromiumPath,
        // The project's API host is `local.localhost`, served over TLS with a certificate made for the run.
        args: [...chromiumFlags, '--host-resolver-rules=MAP *.localhost 127.0.0.1', '--ignore-certificate-errors'],
      }),
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await studio?.stop()
    await site?.stop()
    await lake?.stop()
    if (workingDir) rmSync(workingDir, { recursive: true, force: true })
  })

  return {
    lake() {
      if (!lake) throw new Error('useStudioHarness(): used before beforeAll started it')
      return lake
    },
    studioUrl() {
      if (!studio) throw new Error('useStudioHarness(): used before beforeAll started it')
      return studio.url
    },
    site() {
      if (!site || !datasetPath) throw new Error('useStudioHarness(): no site (withSite) or used before beforeAll started it')
      return { baseUrl: site.baseUrl, datasetPath }
    },
    outsideRequests() {
      return [...outside]
    },
    async open(studioPath) {
      if (!browser || !studio) throw new Error('useStudioHarness(): used before beforeAll started it')
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
      context.setDefaultTimeout(30_000)
      // Offline means offline: a request for any host off this machine is recorded and refused.
      await context.route(
        (url) => !isLoopback(url),
        (route) => {
          outside.push(route.request().url())
          return route.abort('internetdisconnected')
        },
      )
      const page = await context.newPage()
      // The first page waits for `sanity dev` to bundle the studio, which takes long on a busy machine.
      await page.goto(new URL(studioPath, studio.url).href, { timeout: 120_000 })
      return page
    },
  }
}
