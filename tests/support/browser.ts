import { chromium, type Browser, type BrowserContextOptions, type BrowserServer, type Download, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'
import { assertChromiumInstalled, chromiumFlags, chromiumPath } from './chromium.ts'

/** The base URL of the site server started by the global setup. */
export function siteUrl(pathname = '/'): string {
  return new URL(pathname, inject('baseUrl')).href
}

/** Launches the system Chromium headless with the flags the project uses everywhere (tests without the global setup). */
export async function launchBrowser(): Promise<Browser> {
  assertChromiumInstalled()
  return chromium.launch({ executablePath: chromiumPath, args: chromiumFlags })
}

/**
 * Launches the same Chromium as a server the test files connect to: the e2e project's global setup starts one for
 * the whole run instead of one per file.
 */
export async function launchBrowserServer(): Promise<BrowserServer> {
  assertChromiumInstalled()
  return chromium.launchServer({ executablePath: chromiumPath, args: chromiumFlags })
}

/**
 * Connects to the run's Chromium. Every test opens its own context, so files share the browser process but
 * no cookies, storage or pages; closing the connection closes the contexts it opened.
 */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserWsEndpoint'))
}

/**
 * The run's Chromium for the whole test file: connected before its first test, disconnected after its last. Call
 * it at the top level of the file; the getter returns the connected browser.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (!browser) throw new Error('useBrowser(): the browser is used before beforeAll connected to it')
    return browser
  }
}

/** A finished download's content: streamed from the browser, since `download.path()` fails on a connected browser. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const

export type ViewportName = keyof typeof viewports

/** Opens a page at a named viewport width; reduced motion keeps smooth scrolling and fades out of the timings. */
export async function openPage(browser: Browser, viewport: ViewportName, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    reducedMotion: 'reduce',
    ...options,
  })
  // Failures should name the step quickly rather than wait out Playwright's 30 s default.
  context.setDefaultTimeout(10_000)
  return context.newPage()
}

/**
 * Navigates and waits until React has hydrated the page, so a click reaches the enhanced control rather than
 * the server-rendered fallback. React tags the DOM nodes it has claimed with a `__reactFiber$…` key.
 */
export async function gotoHydrated(page: Page, pathname: string): Promise<void> {
  await page.goto(siteUrl(pathname))
  await waitForHydration(page)
}

/** Waits until React has claimed the heading and every element of the page's main content. */
export async function waitForHydration(page: Page): Promise<void> {
  const pathname = new URL(page.url()).pathname
  try {
    // Every element of the page is React's, including lazily loaded parts (their server HTML waits for their code),
    // except the inside of rich text: React sets that HTML as a whole (RichTextHtml) and owns only its container.
    await page.waitForFunction(() => {
      const claimed = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'))
      const insideRichText = (element: Element) => element.parentElement?.closest('.rich-text') != null
      const heading = document.querySelector('h1')
      return (
        heading !== null && claimed(heading) && Array.from(document.querySelectorAll('main *')).every((element) => claimed(element) || insideRichText(element))
      )
    })
  } catch (error) {
    throw new Error(`${pathname} did not hydrate: React never claimed all of its main content`, { cause: error })
  }
}
