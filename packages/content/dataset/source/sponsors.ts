import type { DatasetDocument } from './model.ts'

// The three tiers and their benefits exactly as the specification lists them, as the packages' fields (the Sponsor tab
// writes them as the specification's lines, sponsorBenefitLines).
export const sponsorPackages: DatasetDocument[] = [
  {
    _id: 'sponsor-platinum',
    _type: 'sponsorPackage',
    title: 'Platinum',
    rank: 1,
    complimentarySeats: 3,
    participantDiscountPercent: 50,
    promotionalTextWords: 100,
    literaturePages: 10,
    speakingSlot: '45-minute case study',
  },
  {
    _id: 'sponsor-gold',
    _type: 'sponsorPackage',
    title: 'Gold',
    rank: 2,
    complimentarySeats: 2,
    participantDiscountPercent: 30,
    promotionalTextWords: 70,
    literaturePages: 10,
    speakingSlot: '40-minute case study',
  },
  {
    _id: 'sponsor-silver',
    _type: 'sponsorPackage',
    title: 'Silver',
    rank: 3,
    complimentarySeats: 1,
    participantDiscountPercent: 20,
    promotionalTextWords: 50,
    literaturePages: 10,
    speakingSlot: 'Half-day workshop',
  },
]

/** The sponsor packages every event offers, top tier first. */
export const SPONSOR_PACKAGE_IDS = sponsorPackages.map((sponsorPackage) => sponsorPackage._id)
