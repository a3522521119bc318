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
      name: 'benefits',
      type: 'array',
      group: 'content',
      of: [defineArrayMember({ type: 'string' })],
      validation: (rule) => rule.required().min(1),
    }),
    placeholdersField,
  ],
  orderings: [{ title: 'Rank', name: 'rank', by: [{ field: 'rank', direction: 'asc' }] }],
  preview: {
    select: { title: 'title', rank: 'rank', benefits: 'benefits' },
    prepare: ({ title, rank, benefits }) => ({
      title,
      subtitle: [rank ? `Rank ${rank}` : undefined, `${benefits?.length ?? 0} benefits`].filter(Boolean).join(' · '),
    }),
  },
})
