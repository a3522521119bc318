import { describe, expect, it } from 'vitest'
import { logPlaceholders } from './placeholder-log'

function captured() {
  const lines: Array<{ fields?: object; message: string }> = []
  const logger = {
    info(first: object | string, message?: string) {
      lines.push(typeof first === 'string' ? { message: first } : { fields: first, message: message ?? '' })
    },
  }
  return { lines, logger }
}

describe('logPlaceholders', () => {
  it('logs a heading, then one aligned row per document', () => {
    const { lines, logger } = captured()
    logPlaceholders(logger, [
      { type: 'event', documentId: 'event-pfas', title: 'PFAS', fields: ['contactPhone', 'contactEmail'] },
      { type: 'siteSettings', documentId: 'siteSettings', title: 'Settings', fields: ['bankAccount'] },
    ])
    expect(lines.map((line) => line.message)).toEqual([
      `Content: 3 placeholder values remain in 2 documents; replace them in the studio and remove each from the document's "Placeholder fields":`,
      '  event         event-pfas    contactPhone, contactEmail',
      '  siteSettings  siteSettings  bankAccount',
    ])
    expect(lines[1]?.fields).toEqual({ placeholder: { document: 'event-pfas', fields: ['contactPhone', 'contactEmail'] } })
  })

  it('says so when none remain', () => {
    const { lines, logger } = captured()
    logPlaceholders(logger, [])
    expect(lines).toEqual([{ message: 'Content: no placeholder values remain.' }])
  })
})
