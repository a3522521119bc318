import { UserIcon } from '@sanity/icons'
import { defineField, defineType } from 'sanity'
import { documentRules } from '../lib/schemaRules.ts'
import { imageWithAlt } from './image.ts'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'
import { richText } from './richText.ts'

export const speaker = defineType({
  name: 'speaker',
  title: 'Speaker',
  type: 'document',
  icon: UserIcon,
  validation: documentRules('speaker'),
  groups: [{ name: 'content', title: 'Speaker', default: true }, placeholdersGroup],
  fields: [
    defineField({ name: 'name', type: 'string', group: 'content', validation: (rule) => rule.required() }),
    defineField({ name: 'position', type: 'string', group: 'content' }),
    defineField({
      name: 'company',
      type: 'string',
      group: 'content',
      description: 'Organisation, or the topic when the speaker represents none',
    }),
    richText({ name: 'bio', group: 'content', description: 'Cards show the first 50 characters of its text with a See More toggle' }),
    imageWithAlt({ name: 'image', title: 'Photo', required: true, group: 'content' }),
    placeholdersField,
  ],
  preview: {
    select: { title: 'name', position: 'position', company: 'company', media: 'image' },
    prepare: ({ title, position, company, media }) => ({
      title,
      subtitle: [position, company].filter(Boolean).join(', '),
      media,
    }),
  },
})
