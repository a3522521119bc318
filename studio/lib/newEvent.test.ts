import { describe, expect, it } from 'vitest'
import { newEventValue, standardPriceOptions } from './newEvent.ts'
import { checkEarlyBirdDate, checkOptionsComplete, checkTabContent } from './rules.ts'

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
  it('makes the five standard options of a conference, titled after it', () => {
    const { priceOptions, references } = standardPriceOptions({ kind: 'conference', title: 'Mining Summit 2026' }, [], counter())
    expect(priceOptions.map((option) => [option._id, option.key, option.amount])).toEqual([
      ['price-new-1', 'venue', 7990],
      ['price-new-2', 'early-bird', 6990],
      ['price-new-3', 'online', 5490],
      ['price-new-4', 'table-5', 34950],
      ['price-new-5', 'table-10', 59900],
    ])
    expect(priceOptions[0]).toMatchObject({ _type: 'priceOption', title: 'Mining Summit 2026 — Venue', label: 'Venue' })
    expect(references).toEqual(priceOptions.map((option) => ({ _key: option._id, _type: 'reference', _ref: option._id })))
  })

  it('adds only what a workshop lacks, without tables', () => {
    const { priceOptions } = standardPriceOptions({ kind: 'workshop' }, ['venue'], counter())
    expect(priceOptions.map((option) => [option.key, option.title])).toEqual([
      ['early-bird', 'New event — Early-bird'],
      ['online', 'New event — Online'],
    ])
    expect(standardPriceOptions({ kind: 'workshop' }, ['venue', 'early-bird', 'online'], counter()).priceOptions).toEqual([])
  })

  it('makes options that pass the rules, but for the early-bird date the editor has to choose', () => {
    const { priceOptions } = standardPriceOptions({ kind: 'conference' }, [], counter())
    expect(checkOptionsComplete(priceOptions)).toEqual(['New event — Early-bird: Early-bird options need the last day to register and pay'])
    expect(priceOptions.map((option) => checkEarlyBirdDate(option))).toEqual([undefined, 'Early-bird options need the last day to register and pay', undefined, undefined, undefined])
  })
})
