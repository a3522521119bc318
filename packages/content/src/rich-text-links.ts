// The one rule for where rich-text links may point, shared by the Studio's validation and the site's renderer.
const SAFE_HREF = /^(https?:\/\/|mailto:|tel:|\/(?!\/))/i

/** An editor's link target if the site may link to it (http(s), mailto, tel, or a path on this site), else undefined. */
export function safeHref(href: unknown): string | undefined {
  if (typeof href !== 'string') return undefined
  const trimmed = href.trim()
  return SAFE_HREF.test(trimmed) ? trimmed : undefined
}
