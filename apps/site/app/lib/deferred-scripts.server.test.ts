import { describe, expect, it } from 'vitest'
import { deferHydrationScripts } from './deferred-scripts.server'

// The shape of what React Router's <Scripts> writes, preloads hoisted into the head by React.
const page = [
  '<html><head><link rel="modulepreload" href="/assets/entry.client.js" nonce="n"/><link rel="modulepreload" href="/assets/shared.js" nonce="n"/></head>',
  '<body><main>Page</main><script nonce="n">window.__reactRouterContext = {};</script>',
  '<script nonce="n" type="module" async="">;',
  'import * as route0 from "/assets/root.js";',
  'import * as route1_main from "/assets/page-main.js";',
  'const route1 = {...route1_main};',
  '  window.__reactRouterRouteModules = {"root":route0,"routes/page":route1};',
  '',
  'import("/assets/entry.client.js");</script></body></html>',
].join('\n')

describe('deferHydrationScripts', () => {
  const deferred = deferHydrationScripts(page)

  it('leaves the module preloads inert, with their addresses and nonces', () => {
    expect(deferred).not.toContain('rel="modulepreload"')
    expect(deferred).toContain('<link data-modulepreload="" href="/assets/entry.client.js" nonce="n"/>')
    expect(deferred).toContain('<link data-modulepreload="" href="/assets/shared.js" nonce="n"/>')
  })

  it('starts the same modules, in the same order, once the page has been painted', () => {
    const script = /<script nonce="n" type="module" async="">([\s\S]*?)<\/script>/.exec(deferred)?.[1] ?? ''
    expect(script.indexOf('requestAnimationFrame')).toBeLessThan(script.indexOf("link.rel = 'modulepreload'"))
    expect(script).not.toMatch(/^import \*/m)
    const imports = [...script.matchAll(/import\("([^"]+)"\)/g)].map(([, url]) => url)
    expect(imports).toEqual(['/assets/root.js', '/assets/page-main.js', '/assets/entry.client.js'])
    expect(script).toContain('const route0 = await import("/assets/root.js");')
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/page":route1};')
  })

  it('keeps the rest of the page as it was', () => {
    expect(deferred).toContain('<body><main>Page</main><script nonce="n">window.__reactRouterContext = {};</script>')
    expect(deferHydrationScripts('<html><body>No scripts</body></html>')).toBe('<html><body>No scripts</body></html>')
  })
})
