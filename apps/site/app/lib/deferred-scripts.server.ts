// The page's JavaScript is fetched once the page has been painted, not beside it.
//
// React Router's <Scripts> preloads every module of the page (links React hoists into the head) and starts them
// from an inline module script whose imports the browser fetches as soon as it reads them. On a phone's connection
// those 120 KB then compete with the document, the font and the images for the first paint, which needs none of
// them: every page is whole without JavaScript. So the HTML leaves the preload links inert (data-modulepreload) and
// the inline module waits for the frame after the first paint, then turns the preloads on and imports the same
// modules in the same order. The inline scripts stay inline, so the Content-Security-Policy's hashes and nonces
// allow them as before.

const MODULE_PRELOAD = /<link rel="modulepreload"/g
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/
const STATIC_IMPORT = /^import \* as (\w+) from ("[^"]+");$/gm

/**
 * The bootstrap of React Router's inline module, run after the first paint: the preloads are switched on first so
 * the modules download in parallel, then each `import * as name from "…"` becomes `const name = await import("…")`.
 */
function deferredBootstrap(source: string): string {
  const imports = source.replace(STATIC_IMPORT, 'const $1 = await import($2);')
  return (
    'await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));\n' +
    "for (const link of document.querySelectorAll('link[data-modulepreload]')) link.rel = 'modulepreload';\n" +
    imports
  )
}

/** The page's HTML with its module preloads and hydration entry held back until after the first paint. */
export function deferHydrationScripts(html: string): string {
  const match = MODULE_SCRIPT.exec(html)
  // A page without React Router's entry (none should be) is left as it is.
  if (!match) return html
  const [, open, source, close] = match
  return html.replace(MODULE_SCRIPT, () => `${open}${deferredBootstrap(source!)}${close}`).replace(MODULE_PRELOAD, '<link data-modulepreload=""')
}
