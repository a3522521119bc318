import { describe, expect, it } from 'vitest'
import { maskEmail, scrubSecrets } from './redact.ts'

describe('maskEmail', () => {
  it.each([
    ['jane.doe@example.com', 'j***@example.com'],
    ['a@b.co', 'a***@b.co'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, masked) => {
    expect(maskEmail(address)).toBe(masked)
  })
})

describe('scrubSecrets', () => {
  it.each([
    ['wrote "Confirmation" to thandi@acme.example.com, pieter@acme.example.com', 'wrote "Confirmation" to t***@acme.example.com, p***@acme.example.com'],
    ['GET /registrations/ABC-123/dGhpcyBpcyBhIHNlY3JldA', 'GET /registrations/ABC-123/[redacted]'],
    ['/registrations/ABC-123/s3cr3t_-x/pay', '/registrations/ABC-123/[redacted]/pay'],
    ['https://site.test/registrations/ABC/s3cr3t/payment/success?x=1', 'https://site.test/registrations/ABC/[redacted]/payment/success?x=1'],
    [
      'GET /api/preview-mode/enable?sanity-preview-secret=Xy_9-z&sanity-preview-pathname=%2F',
      'GET /api/preview-mode/enable?sanity-preview-secret=[redacted]&sanity-preview-pathname=%2F',
    ],
    ['/api/preview-mode/enable?a=1&sanity-preview-secret=s3cr3t', '/api/preview-mode/enable?a=1&sanity-preview-secret=[redacted]'],
    ['SMTP_URL=smtps://mailer:hunter2@smtp.example.com:465', 'SMTP_URL=smtps://mailer:[redacted]@smtp.example.com:465'],
    ['postgres://events:pa55@db.internal:5432/events', 'postgres://events:[redacted]@db.internal:5432/events'],
    ['key sk_live_abcDEF123 and sk_test_x1 and whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'key sk_live_[redacted] and sk_test_[redacted] and whsec_[redacted]'],
    ['authorization: Bearer abc.def-123', 'authorization: Bearer [redacted]'],
    ['{"msg":"to j***@example.com"}', '{"msg":"to j***@example.com"}'],
    ['Site listening on http://localhost:3000', 'Site listening on http://localhost:3000'],
    // A host without a domain is no one's mailbox.
    ['Events <no-reply@localhost>', 'Events <no-reply@localhost>'],
    // Package versions in a stack trace are paths, not addresses; the address beside them is masked.
    [
      'Error: no mail for thandi@example.co.za\n    at run (/app/node_modules/.pnpm/pnpm@11.0.0/node_modules/pnpm/dist/pnpm.cjs:12:3)\n    at compile (/app/node_modules/.pnpm/kysely@0.28.2/node_modules/kysely/dist/esm/query-compiler.js:40:9)',
      'Error: no mail for t***@example.co.za\n    at run (/app/node_modules/.pnpm/pnpm@11.0.0/node_modules/pnpm/dist/pnpm.cjs:12:3)\n    at compile (/app/node_modules/.pnpm/kysely@0.28.2/node_modules/kysely/dist/esm/query-compiler.js:40:9)',
    ],
    [
      '/app/node_modules/.pnpm/vite@7.1.0-beta.2_@types+node@24.9.1/node_modules/vite/dist/node/index.js',
      '/app/node_modules/.pnpm/vite@7.1.0-beta.2_@types+node@24.9.1/node_modules/vite/dist/node/index.js',
    ],
    ['mail for sipho@163.com and lerato@mail2.example.org', 'mail for s***@163.com and l***@mail2.example.org'],
  ])('%s', (text, scrubbed) => {
    expect(scrubSecrets(text)).toBe(scrubbed)
  })

  it('leaves JSON lines parseable', () => {
    const line = JSON.stringify({ msg: 'mail to a.b@c.example', url: '/registrations/R/S' })
    expect(JSON.parse(scrubSecrets(line))).toEqual({ msg: 'mail to a***@c.example', url: '/registrations/R/[redacted]' })
  })
})
