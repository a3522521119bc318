import { describe, expect, it } from 'vitest'
import { benefitFieldsOfLines, sponsorBenefitLines } from './sponsor-benefits.ts'

const TIERS = {
  Platinum: ['3 complimentary seats', '50% discount for your participants', '100 words of promotional text', '10 pages of literature', '45-minute case study'],
  Gold: ['2 complimentary seats', '30% discount for your participants', '70 words of promotional text', '10 pages of literature', '40-minute case study'],
  Silver: ['1 complimentary seat', '20% discount for your participants', '50 words of promotional text', '10 pages of literature', 'Half-day workshop'],
}

describe('sponsor package benefits', () => {
  it.each(Object.entries(TIERS))('reads the %s lines into fields and writes the same lines back', (_tier, lines) => {
    const fields = benefitFieldsOfLines(lines)
    expect(fields.benefits).toEqual([])
    expect(sponsorBenefitLines(fields)).toEqual(lines)
  })

  it('reads the Platinum numbers', () => {
    expect(benefitFieldsOfLines(TIERS.Platinum)).toEqual({
      complimentarySeats: 3,
      participantDiscountPercent: 50,
      promotionalTextWords: 100,
      literaturePages: 10,
      speakingSlot: '45-minute case study',
      benefits: [],
    })
  })

  it('keeps lines it cannot read as other benefits, in order, and never reads a discount above 100%', () => {
    expect(benefitFieldsOfLines(['Logo on the banner', '150% discount for your participants', '2 complimentary seats', '  '])).toEqual({
      complimentarySeats: 2,
      participantDiscountPercent: null,
      promotionalTextWords: null,
      literaturePages: null,
      speakingSlot: null,
      benefits: ['Logo on the banner', '150% discount for your participants'],
    })
  })

  it('leaves out what a package does not give and still lists the lines of a package stored before the fields', () => {
    expect(sponsorBenefitLines({ complimentarySeats: 0, participantDiscountPercent: null, speakingSlot: ' ', benefits: ['Logo on the banner'] })).toEqual([
      'Logo on the banner',
    ])
    expect(sponsorBenefitLines({ benefits: TIERS.Gold })).toEqual(TIERS.Gold)
  })
})
