/** What replaces a secret in a log line. */
export const REDACTED = '[redacted]'

/** j***@example.com: enough to tell registrants apart in a log, not enough to write to them. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@')
  if (at <= 0) return address
  return `${address[0]}***${address.slice(at)}`
}

// Order matters: URL credentials go before e-mail masking, which would otherwise read "user:pass@host" as an address.
const SCRUBBERS: ReadonlyArray<[RegExp, (match: string, ...groups: string[]) => string]> = [
  // smtps://user:password@host, postgres://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"']+):[^\s@/"']+@/gi, (_match, prefix) => `${prefix}:${REDACTED}@`],
  // The registrant's private link: /registrations/{reference}/{secret}, and every payment URL under it.
  [/(\/registrations\/[^/\s"'?#]+\/)[^/\s"'?#]+/g, (_match, prefix) => `${prefix}${REDACTED}`],
  // The Studio's preview secret in the preview-mode enable URL: valid for an hour, it would open draft previews.
  [/([?&]sanity-preview-secret=)[^&\s"'#]+/g, (_match, prefix) => `${prefix}${REDACTED}`],
  // Yoco secret keys and Standard Webhooks secrets.
  [/\b(sk_(?:live|test)_|whsec_)[A-Za-z0-9+/=_-]+/g, (_match, prefix) => `${prefix}${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, (_match, scheme) => `${scheme} ${REDACTED}`],
  // An address's domain ends in a name of letters (.com, .co.za); a package's version in a stack trace's path
  // (kysely@0.28.2, pnpm@11.0.0, vite@7.1.0-beta.2) starts with digits and a dot, and is no one's mailbox.
  [/[A-Za-z0-9._%+-]+@(?!\d+\.\d)(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b/g, (match) => maskEmail(match)],
]

/** Masks e-mail addresses and removes registration secrets, key material and URL passwords from a line of text. */
export function scrubSecrets(text: string): string {
  let scrubbed = text
  for (const [pattern, replace] of SCRUBBERS) scrubbed = scrubbed.replace(pattern, replace)
  return scrubbed
}
