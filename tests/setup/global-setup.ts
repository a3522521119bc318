// Builds the site when needed, starts it once for every browser test file and stops it at the end.
import type { TestProject } from 'vitest/node'
import { assertChromiumInstalled } from '../support/chromium.ts'
import { ensureSiteBuild, startSite } from '../support/site-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  assertChromiumInstalled()
  ensureSiteBuild({ force: process.env.CI === 'true' })
  // Every browser test posts from 127.0.0.1; the per-IP form limit has its own test in tests/http.
  const site = await startSite({ env: { FORM_RATE_LIMIT: '0' } })
  project.provide('baseUrl', site.baseUrl)
  return site.stop
}
