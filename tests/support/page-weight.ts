// What a first visit to a page costs in transferred bytes: the HTML plus the CSS and JavaScript it loads,
// each measured gzip-compressed as the server would send it over a compressing connection.
import { gzipSync } from 'node:zlib'

export interface PageWeight {
  pathname: string
  htmlGzip: number
  cssGzip: number
  jsGzip: number
  scripts: Array<{ url: string; gzip: number }>
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
    .exec(tag)
    ?.slice(1)
    .find((value) => value !== undefined)
}

/** URLs of the JavaScript (script src and modulepreload) and stylesheets an HTML document loads. */
export function assetsOf(html: string, documentUrl: string): { scripts: string[]; stylesheets: string[] } {
  const scripts = new Set<string>()
  const stylesheets = new Set<string>()
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src')
    if (src) scripts.add(new URL(src, documentUrl).href)
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? []
    const href = attribute(tag, 'href')
    if (!href) continue
    // A module preload the page switches on after its first paint (apps/site/app/lib/deferred-scripts.server.ts) loads
    // up front all the same.
    if (rel.includes('modulepreload') || attribute(tag, 'data-modulepreload') !== undefined) scripts.add(new URL(href, documentUrl).href)
    if (rel.includes('stylesheet')) stylesheets.add(new URL(href, documentUrl).href)
  }
  // Inline module imports (React Router's hydration entry) name further chunks without a preload.
  for (const [script] of html.matchAll(/<script\b[^>]*type=["']?module["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, specifier] of script.matchAll(/import\s*(?:\(\s*|[^'"]*?from\s*)?["']([^"']+\.js)["']/g)) {
      scripts.add(new URL(specifier!, documentUrl).href)
    }
  }
  return { scripts: [...scripts], stylesheets: [...stylesheets] }
}

async function gzipSizeOf(url: string): Promise<number> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return gzipSync(Buffer.from(await response.arrayBuffer())).byteLength
}

/** Fetches a page and every CSS and JavaScript file its HTML loads, and sums their gzip sizes. */
export async function measurePageWeight(baseUrl: string, pathname: string): Promise<PageWeight> {
  const documentUrl = new URL(pathname, baseUrl).href
  const response = await fetch(documentUrl)
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}`)
  const html = await response.text()
  const { scripts, stylesheets } = assetsOf(html, documentUrl)
  const scriptSizes = await Promise.all(scripts.map(async (url) => ({ url, gzip: await gzipSizeOf(url) })))
  const styleSizes = await Promise.all(stylesheets.map(gzipSizeOf))
  return {
    pathname,
    htmlGzip: gzipSync(html).byteLength,
    cssGzip: styleSizes.reduce((sum, size) => sum + size, 0),
    jsGzip: scriptSizes.reduce((sum, script) => sum + script.gzip, 0),
    scripts: scriptSizes,
  }
}

/**
 * The most gzipped JavaScript a public page may load up front (its scripts and module preloads). React, React DOM and
 * React Router alone weigh about 107 KB of it (the build's React DOM chunk 63.6 KB, React and React Router 41 KB, the
 * hydration entry 1.6 KB); React Query, which hydrates the content the server prefetched and keeps it fresh
 * (app/lib/content.tsx), 10 KB; the site's own code on the heaviest page, an event page, about 10 KB. An event page
 * measured 127.0 KB (130,049 bytes), rounded up to the next KB.
 */
export const javaScriptBudget = 128 * 1024

/** Formats a byte count in KB with one decimal. */
export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`
}
