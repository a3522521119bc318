import type { DatasetDocument } from './model.ts'

// The three tiers and their benefits exactly as the specification lists them.
export const sponsorPackages: DatasetDocument[] = [
  {
    _id: 'sponsor-platinum',
    _type: 'sponsorPackage',
    title: 'Platinum',
    rank: 1,
    benefits: [
      '3 complimentary seats',
      '50% discount for your participants',
      '100 words of promotional text',
      '10 pages of literature',
      '45-minute case study',
    ],
  },
  {
    _id: 'sponsor-gold',
    _type: 'sponsorPackage',
    title: 'Gold',
    rank: 2,
    benefits: [
      '2 complimentary seats',
      '30% discount for your participants',
      '70 words of promotional text',
      '10 pages of literature',
      '40-minute case study',
    ],
  },
  {
    _id: 'sponsor-silver',
    _type: 'sponsorPackage',
    title: 'Silver',
    rank: 3,
    benefits: [
      '1 complimentary seat',
      '20% discount for your participants',
      '50 words of promotional text',
      '10 pages of literature',
      'Half-day workshop',
    ],
  },
]

/** The sponsor packages every event offers, top tier first. */
export const SPONSOR_PACKAGE_IDS = sponsorPackages.map((sponsorPackage) => sponsorPackage._id)
