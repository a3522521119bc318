import { StarIcon } from '@sanity/icons'
import { defineArrayMember, defineField, defineType } from 'sanity'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'

export const sponsorPackage = defineType({
  name: 'sponsorPackage',
  title: 'Sponsor package',
  type: 'document',
  icon: StarIcon,
  groups: [{ name: 'content', title: 'Package', default: true }, placeholdersGroup],
  fields: [
    defineField({
      name: 'title',
      type: 'string',
      group: 'content',
      description: 'The tier, e.g. "Platinum"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'rank',
      type: 'number',
      group: 'content',
      description: '1 is the top tier',
      validation: (rule) => rule.integer().min(1),
    }),
    defineField({
      name: 'complimentarySeats',
      title: 'Complimentary seats',
      type: 'number',
      group: 'content',
      description: 'Seats the sponsor’s people attend free: a deal’s complimentary code gives as many uses',
      validation: (rule) => rule.required().integer().min(0),
    }),
    defineField({
      name: 'participantDiscountPercent',
      title: 'Participant discount (%)',
      type: 'number',
      group: 'content',
      description: 'Taken off the price in force for the sponsor’s participants, e.g. 50: a deal’s participant code gives it',
      validation: (rule) => rule.required().integer().min(0).max(100),
    }),
    defineField({
      name: 'promotionalTextWords',
      title: 'Words of promotional text',
      type: 'number',
      group: 'content',
      description: 'The most words of the sponsor’s promotional text; staff check it when they paste it in',
      validation: (rule) => rule.required().integer().min(0),
    }),
    defineField({
      name: 'literaturePages',
      title: 'Pages of literature',
      type: 'number',
      group: 'content',
      description: 'The most pages of literature the sponsor may hand out',
      validation: (rule) => rule.required().integer().min(0),
    }),
    defineField({
      name: 'speakingSlot',
      title: 'Speaking slot',
      type: 'string',
      group: 'content',
      description: 'E.g. “45-minute case study” or “Half-day workshop”; empty when the package has none',
    }),
    defineField({
      name: 'priceExclVat',
      title: 'Price excl. VAT (R)',
      type: 'number',
      group: 'content',
      description: 'Optional: the package’s list price; a deal agreed below it needs a manager’s approval',
      validation: (rule) => rule.min(0).precision(2),
    }),
    defineField({
      name: 'benefits',
      title: 'Other benefits',
      type: 'array',
      group: 'content',
      description: 'Anything else the package gives, one line each; the Sponsor tab lists them after the benefits above',
      of: [defineArrayMember({ type: 'string' })],
    }),
    placeholdersField,
  ],
  orderings: [{ title: 'Rank', name: 'rank', by: [{ field: 'rank', direction: 'asc' }] }],
  preview: {
    select: { title: 'title', rank: 'rank', seats: 'complimentarySeats', percent: 'participantDiscountPercent' },
    prepare: ({ title, rank, seats, percent }) => ({
      title,
      subtitle: [rank ? `Rank ${rank}` : undefined, `${seats ?? 0} seats`, `${percent ?? 0}% off`].filter(Boolean).join(' · '),
    }),
  },
})
