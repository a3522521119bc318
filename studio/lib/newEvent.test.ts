import { describe, expect, it } from 'vitest'
import { newEventValue, standardPriceOptions } from './newEvent.ts'
import { checkPriceOptions, checkTabContent } from './rules.ts'

function counter() {
  let next = 0
  return () => `price-new-${++next}`
}

describe('newEventValue', () => {
  it('starts a conference with all tabs and the sponsor packages', () => {
    expect(newEventValue('conference', ['sponsor-platinum', 'sponsor-gold'])).toEqual({
      kind: 'conference',
      format: 'in-person',
      tabs: ['overview', 'agenda', 'register', 'speakers', 'sponsor'],
      card: { listed: true },
      sponsorPackages: [
        { _key: 'sponsor-platinum', _type: 'reference', _ref: 'sponsor-platinum' },
        { _key: 'sponsor-gold', _type: 'reference', _ref: 'sponsor-gold' },
      ],
    })
  })

  it('starts a workshop without a Speakers tab', () => {
    expect(newEventValue('workshop', [])).toMatchObject({ kind: 'workshop', tabs: ['overview', 'agenda', 'register', 'sponsor'], sponsorPackages: [] })
  })

  it('leaves the editor the agenda, speakers and price options to add', () => {
    expect(checkTabContent(newEventValue('conference', ['sponsor-gold']))).toEqual([
      'The Agenda tab needs at least one agenda day',
      'The Speakers tab needs at least one speaker',
      'The Register tab needs at least one price option',
    ])
  })
})

describe('standardPriceOptions', () => {
  it('makes the five standard options of a conference', () => {
    const options = standardPriceOptions({ kind: 'conference' }, counter())
    expect(options.map((option) => [option._key, option.key, option.amount])).toEqual([
      ['price-new-1', 'venue', 7990],
      ['price-new-2', 'early-bird', 6990],
      ['price-new-3', 'online', 5490],
      ['price-new-4', 'table-5', 34950],
      ['price-new-5', 'table-10', 59900],
    ])
    expect(options[0]).toEqual({ _key: 'price-new-1', _type: 'priceOption', key: 'venue', label: 'Venue', amount: 7990 })
  })

  it('adds only what a workshop lacks, without tables', () => {
    expect(standardPriceOptions({ kind: 'workshop', priceOptions: [{ key: 'venue' }] }, counter()).map((option) => option.key)).toEqual([
      'early-bird',
      'online',
    ])
    expect(standardPriceOptions({ kind: 'workshop', priceOptions: [{ key: 'venue' }, { key: 'early-bird' }, { key: 'online' }] }, counter())).toEqual([])
  })

  it('makes options that pass the rules, but for the early-bird date the editor has to choose', () => {
    const priceOptions = standardPriceOptions({ kind: 'conference' }, counter())
    expect(checkPriceOptions(priceOptions, '2026-07-23T07:30:00+02:00')).toEqual([
      { message: 'Early-bird options need the last day to register and pay', path: ['priceOptions', { _key: 'price-new-2' }, 'earlyBirdUntil'] },
    ])
  })
})
