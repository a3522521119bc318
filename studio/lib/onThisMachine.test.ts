import { describe, expect, it } from 'vitest'
import { isOnThisMachine, keepOnThisMachine } from './onThisMachine.ts'

// The parts of the page `sanity dev` and `sanity build` write that reach off the machine, as Sanity renders them.
const SANITY_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Events</title><style>
  @font-face {
    font-family: Inter;
    font-style: normal;
    font-weight: 400;
    font-display: swap;
    src: url("https://studio-static.sanity.io/Inter-Regular.woff2") format("woff2");
  }
  @font-face {
    font-family: Inter;
    font-style: italic;
    font-weight: 800;
    src: url("https://studio-static.sanity.io/Inter-ExtraBoldItalic.woff2") format("woff2");
  }
  html { background-color: #f1f3f6; }
</style><script src="https://core.sanity-cdn.com/bridge.js" async type="module" data-sanity-core></script>
</head><body><div id="sanity"></div><script type="module" src="/.sanity/runtime/app.js"></script></body></html>`

describe('the studio page on local content', () => {
  const page = keepOnThisMachine(SANITY_PAGE)

  it('names no host off this machine', () => {
    expect(page).not.toMatch(/sanity-cdn|studio-static|sanity\.io/)
    expect(page).toContain('html { background-color: #f1f3f6; }')
    expect(page).toContain('<script type="module" src="/.sanity/runtime/app.js"></script>')
  })

  it('lets the browser connect to this machine only', () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="connect-src ([^"]+)">/.exec(page)?.[1]
    expect(policy?.split(' ')).toEqual(expect.arrayContaining(["'self'", 'https://*.localhost:*', 'wss://*.localhost:*']))
    expect(policy?.split(' ').every((source) => /^('self'|blob:|data:|\w+:\/\/(localhost|\*\.localhost|127\.0\.0\.1):\*)$/.test(source))).toBe(true)
  })

  it('applies only where the API is the local stand-in', () => {
    expect(['https://localhost:3334', 'https://local.localhost:3334', 'http://127.0.0.1:9000'].map(isOnThisMachine)).toEqual([true, true, true])
    expect([undefined, '', 'https://api.sanity.io', 'https://localhost.example.com', 'not a url'].map(isOnThisMachine)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
