import type { CliConfig } from 'sanity/cli'

type ViteConfigHook = Extract<NonNullable<CliConfig['vite']>, (...args: never[]) => unknown>
type ViteConfig = Parameters<ViteConfigHook>[0]

/**
 * Where the studio on local content may connect: this machine only (the local stand-in of Sanity's API under
 * `*.localhost`, the dev server itself, the site beside it). Anything else Sanity's own code asks for (the check for a
 * newer studio, the feedback intake) is refused by the browser before it leaves, whatever it is.
 */
const LOOPBACK_SOURCES = [
  "'self'",
  'blob:',
  'data:',
  'http://localhost:*',
  'https://localhost:*',
  'ws://localhost:*',
  'wss://localhost:*',
  'http://*.localhost:*',
  'https://*.localhost:*',
  'wss://*.localhost:*',
  'http://127.0.0.1:*',
  'https://127.0.0.1:*',
  'ws://127.0.0.1:*',
]

/** True when the studio's API host is the local stand-in on this machine (`pnpm dev` without a Sanity project). */
export function isOnThisMachine(apiHost: string | undefined): boolean {
  if (!apiHost) return false
  try {
    const { hostname } = new URL(apiHost)
    return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]'
  } catch {
    return false
  }
}

/**
 * The studio's page as it is served on local content: without the bridge script `sanity dev` writes into it (it
 * talks to Sanity's dashboard, which a local studio has none of), without the fonts it loads from Sanity's CDN (the
 * studio's font stack falls back to the system's), and with a policy that lets it connect to this machine only.
 */
export function keepOnThisMachine(html: string): string {
  const policy = `<meta http-equiv="Content-Security-Policy" content="connect-src ${LOOPBACK_SOURCES.join(' ')}">`
  return html
    .replace(/<script\b[^>]*\bsrc="https:\/\/core\.sanity-cdn\.(?:com|work)\/bridge\.js"[^>]*><\/script>\s*/g, '')
    .replace(/@font-face\s*\{[^}]*https:\/\/studio-static\.sanity\.io\/[^}]*\}\s*/g, '')
    .replace(/<head>/, `<head>\n${policy}`)
}

/**
 * The studio's Vite configuration: on local content, its page is served (and built) kept on this machine; with a
 * Sanity project, as Sanity serves it.
 */
export function studioVite(apiHost: string | undefined): ViteConfigHook {
  return (config: ViteConfig) => {
    if (!isOnThisMachine(apiHost)) return config
    return {
      ...config,
      plugins: [
        ...(config.plugins ?? []),
        {
          name: 'studio-on-this-machine',
          transformIndexHtml: { order: 'post', handler: keepOnThisMachine },
          generateBundle(_options, bundle) {
            const page = bundle['index.html']
            if (page?.type === 'asset' && typeof page.source === 'string') page.source = keepOnThisMachine(page.source)
          },
        },
      ],
    }
  }
}
