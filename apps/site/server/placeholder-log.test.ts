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
  it('sums them up in one line, by type, with the documents and fields in its fields', () => {
    const { lines, logger } = captured()
    logPlaceholders(logger, [
      { type: 'event', documentId: 'event-pfas', title: 'PFAS', fields: ['contactPhone', 'contactEmail'] },
      { type: 'siteSettings', documentId: 'siteSettings', title: 'Settings', fields: ['bankAccount'] },
      { type: 'speaker', documentId: 'speaker-1', title: 'A', fields: ['image'] },
      { type: 'speaker', documentId: 'speaker-2', title: 'B', fields: ['image', 'company'] },
    ])
    expect(lines).toEqual([
      {
        message:
          'Content: 6 placeholder values remain in 4 documents (1 event, 1 siteSettings, 2 speaker); replace them in the studio; node scripts/placeholders.mjs lists them',
        fields: {
          placeholderValues: 6,
          placeholderDocuments: 4,
          placeholders: [
            { document: 'event-pfas', fields: ['contactPhone', 'contactEmail'] },
            { document: 'siteSettings', fields: ['bankAccount'] },
            { document: 'speaker-1', fields: ['image'] },
            { document: 'speaker-2', fields: ['image', 'company'] },
          ],
        },
      },
    ])
  })

  it('says so when none remain', () => {
    const { lines, logger } = captured()
    logPlaceholders(logger, [])
    expect(lines).toEqual([{ message: 'Content: no placeholder values remain.' }])
  })
})
