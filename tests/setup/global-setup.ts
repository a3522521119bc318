// Builds the site when needed, starts it and one Chromium once for every test file and stops both at the end.
import type { TestProject } from 'vitest/node'
import { launchBrowserServer } from '../support/browser.ts'
import { ensureSiteBuild, startSite } from '../support/site-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    /** Where the run's Chromium listens for Playwright connections (`chromium.connect`). */
    browserWsEndpoint: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const browserServer = await launchBrowserServer()
  project.provide('browserWsEndpoint', browserServer.wsEndpoint())
  try {
    ensureSiteBuild({ force: process.env.CI === 'true' })
    // Every browser test posts from 127.0.0.1; the per-IP form limit has its own test in tests/http.
    const site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
    project.provide('baseUrl', site.baseUrl)
    return async () => {
      await site.stop()
      await browserServer.close()
    }
  } catch (error) {
    await browserServer.close()
    throw error
  }
}
