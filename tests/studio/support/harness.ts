// The studio in Chromium, offline: `sanity dev` pointed at the content-lake stand-in, which holds the shipped
// dataset (changed by the test file's seed), and one browser whose requests for `<project>.localhost` reach it.
import path from 'node:path'
import { loadDataset, type SanityDocument } from '@events/content'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { assertChromiumInstalled, chromiumFlags, chromiumPath } from '../../support/chromium.ts'
import { repoRoot } from '../../support/site-server.ts'
import { startStudioDevServer, type RunningStudio } from '../../support/studio-server.ts'
import { startContentLake, type ContentLake } from './content-lake.ts'

const PROJECT_ID = 'harness'
const shippedDataset = path.join(repoRoot, 'packages/content/dataset/production.ndjson')

export interface StudioHarness {
  lake(): ContentLake
  /** A new page (its own context) at a path of the studio, e.g. `structure/events`. */
  open(studioPath: string): Promise<Page>
}

/**
 * Starts the stand-in, the studio and Chromium before the file's first test and stops them after its last.
 * `seed` changes the shipped documents first (a draft to publish, a price that breaks a rule).
 */
export function useStudioHarness(seed: (documents: SanityDocument[]) => SanityDocument[] = (documents) => documents): StudioHarness {
  let lake: ContentLake | undefined
  let studio: RunningStudio | undefined
  let browser: Browser | undefined

  beforeAll(async () => {
    assertChromiumInstalled()
    const assetBasePath = '/_content'
    const { documents, assetFiles } = await loadDataset({ datasetPath: shippedDataset, assetBasePath })
    const images = new Map<string, { filePath: string; mimeType: string }>()
    for (const asset of documents.filter((document) => document._type === 'sanity.imageAsset')) {
      const file = assetFiles.get(String(asset.url).slice(assetBasePath.length + 1))
      // The CDN name of `image-<sha1>-<w>x<h>-<ext>` is `<sha1>-<w>x<h>.<ext>`.
      if (file) images.set(asset._id.replace(/^image-/, '').replace(/-([a-z0-9]+)$/, '.$1'), file)
    }
    lake = await startContentLake({ documents: seed(documents), images })
    ;[studio, browser] = await Promise.all([
      startStudioDevServer({ SANITY_STUDIO_PROJECT_ID: PROJECT_ID, SANITY_STUDIO_API_HOST: lake.apiHost }),
      chromium.launch({
        executablePath: chromiumPath,
        // The project's API host is `harness.localhost`, served over TLS with a certificate made for the run.
        args: [...chromiumFlags, '--host-resolver-rules=MAP *.localhost 127.0.0.1', '--ignore-certificate-errors'],
      }),
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await studio?.stop()
    await lake?.stop()
  })

  return {
    lake() {
      if (!lake) throw new Error('useStudioHarness(): used before beforeAll started it')
      return lake
    },
    async open(studioPath) {
      if (!browser || !studio) throw new Error('useStudioHarness(): used before beforeAll started it')
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
      context.setDefaultTimeout(30_000)
      const page = await context.newPage()
      // The first page waits for `sanity dev` to bundle the studio, which takes long on a busy machine.
      await page.goto(new URL(studioPath, studio.url).href, { timeout: 120_000 })
      return page
    },
  }
}
