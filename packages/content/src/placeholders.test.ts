import { describe, expect, it } from 'vitest'
import { formatPlaceholderReport, listPlaceholders, type PlaceholderSource } from './placeholders.ts'

const documents: PlaceholderSource[] = [
  { _id: 'speaker-pfas-01', _type: 'speaker', name: 'Dr Thandi Placeholder', placeholders: ['name', 'image'] },
  { _id: 'siteSettings', _type: 'siteSettings', siteName: 'Events Co', placeholders: ['phones', 'email'] },
  { _id: 'event-pfas', _type: 'event', title: 'PFAS Conference 2025', placeholders: ['code'] },
  { _id: 'drafts.event-pfas', _type: 'event', title: 'PFAS Conference 2025', placeholders: ['code', 'contactPhone'] },
  { _id: 'page-home', _type: 'page', title: 'Home', placeholders: [] },
  { _id: 'division-workshops', _type: 'division', title: 'Workshops' },
  { _id: 'page-terms', _type: 'page', placeholders: ['title'] },
]

describe('listPlaceholders', () => {
  it('lists published documents with placeholder fields, sorted by type and id', () => {
    expect(listPlaceholders(documents)).toEqual([
      { documentId: 'event-pfas', type: 'event', title: 'PFAS Conference 2025', fields: ['code'] },
      { documentId: 'page-terms', type: 'page', title: 'page-terms', fields: ['title'] },
      { documentId: 'siteSettings', type: 'siteSettings', title: 'Events Co', fields: ['phones', 'email'] },
      { documentId: 'speaker-pfas-01', type: 'speaker', title: 'Dr Thandi Placeholder', fields: ['name', 'image'] },
    ])
  })

  it('ignores values that are not field paths', () => {
    expect(listPlaceholders([{ _id: 'x', _type: 'page', title: 'X', placeholders: ['', 3, 'intro'] }])).toEqual([
      { documentId: 'x', type: 'page', title: 'X', fields: ['intro'] },
    ])
    expect(listPlaceholders([{ _id: 'y', _type: 'page', placeholders: 'intro' }])).toEqual([])
  })
})

describe('formatPlaceholderReport', () => {
  it('counts the values and names every document and field', () => {
    const report = formatPlaceholderReport(listPlaceholders(documents))
    expect(report.split('\n')).toEqual([
      'Content: 6 placeholder values remain in 4 documents. Replace them in the studio and remove each entry from the document\'s "Placeholder fields":',
      '  - event "PFAS Conference 2025" (event-pfas): code',
      '  - page "page-terms" (page-terms): title',
      '  - siteSettings "Events Co" (siteSettings): phones, email',
      '  - speaker "Dr Thandi Placeholder" (speaker-pfas-01): name, image',
    ])
  })

  it('says so when nothing is left', () => {
    expect(formatPlaceholderReport([])).toBe('Content: no placeholder values remain.')
  })
})
