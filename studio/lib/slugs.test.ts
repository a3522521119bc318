import { describe, expect, it } from 'vitest'
import { SLUG_MAX_LENGTH, slugFromTitle } from './slugs.ts'

describe('slugFromTitle', () => {
  it.each([
    ['Economic Resilience Conference 2026', 'economic-resilience-conference-2026'],
    ['Économie & Résilience: 2026!', 'economie-resilience-2026'],
    ['  Office Professionals 2026 (incl. EQ)  ', 'office-professionals-2026-incl-eq'],
    ['PFAS — "forever chemicals"', 'pfas-forever-chemicals'],
    ['', ''],
  ])('%j -> %j', (title, slug) => {
    expect(slugFromTitle(title)).toBe(slug)
  })

  it('passes the event slug rule and stops at the maximum length without a trailing hyphen', () => {
    const slug = slugFromTitle(`${'a'.repeat(SLUG_MAX_LENGTH - 1)} b`)
    expect(slug).toBe('a'.repeat(SLUG_MAX_LENGTH - 1))
    expect(slugFromTitle('Board Management & Governance Masterclass')).toMatch(/^[A-Za-z0-9-]+$/)
  })
})
