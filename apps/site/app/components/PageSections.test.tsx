import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { ContentQueryResults } from '@events/content/browser'
import { withRichText } from '@events/content/rich-text'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PageSections } from './PageSections'

// The shipped dataset's pages, shaped as the page query gives them (its sections are `{ _key, heading, body }`).
const shippedPages = readFileSync(path.join(import.meta.dirname, '../../../../packages/content/dataset/production.ndjson'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { _id: string; _type: string })
  .filter((document) => document._type === 'page')

function renderPage(id: string) {
  const page = shippedPages.find((document) => document._id === id)
  if (!page) throw new Error(`No ${id} in the shipped dataset`)
  return render(<PageSections page={withRichText(page) as unknown as NonNullable<ContentQueryResults['page']>} />)
}

describe('PageSections', () => {
  it("shows the terms' clauses as list items in their sections, with their bold, italic and linked words", () => {
    const { container } = renderPage('page-terms')
    const sections = [...container.querySelectorAll('section')]
    expect(sections.map((section) => [section.querySelector('h2')?.textContent, section.querySelectorAll('ul > li').length])).toEqual([
      ['Registration and payment', 3],
      ['What the fee covers', 2],
      ['Changes to the programme', 1],
      ['Cancellations', 4],
      ['Substitutions', 2],
    ])
    const payment = within(sections[0]!).getAllByRole('listitem')[0]!
    expect(payment).toHaveTextContent('Payment is due in full within 5 days of the invoice date.')
    expect(payment.querySelector('strong')).toHaveTextContent('within 5 days')
    expect(within(sections[3]!).getAllByRole('listitem')[3]!.querySelector('em')).toHaveTextContent('unless agreed in writing')
    const substitution = within(sections[4]!).getAllByRole('listitem')[0]!
    expect(within(substitution).getByRole('link', { name: 'notified in writing' })).toHaveAttribute('href', '/#contact')
  })

  it.each([
    ['page-mission', 4],
    ['page-sponsorship', 4],
    ['page-inhouse-training', 4],
    ['page-online-training', 4],
    ['page-privacy', 7],
  ])("shows %s's lists from its rich text (%i items)", (id, items) => {
    renderPage(id)
    expect(screen.getAllByRole('listitem')).toHaveLength(items)
    for (const list of screen.getAllByRole('list')) expect(list.closest('.rich-text')).not.toBeNull()
  })
})
