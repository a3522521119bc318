import { ArrowRightIcon } from '@sanity/icons'
import { defineField, defineType } from 'sanity'
import { documentRules } from '../lib/schemaRules.ts'

// Publishing an event under a new slug writes one of these, so links to the old address keep working.
export const redirect = defineType({
  name: 'redirect',
  title: 'Redirect',
  type: 'document',
  icon: ArrowRightIcon,
  validation: documentRules('redirect'),
  fields: [
    defineField({
      name: 'from',
      type: 'string',
      description: 'The old path, e.g. "/conference/OldSlug"; the paths under it (its contact page) move too',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'to',
      type: 'string',
      description: 'Where visitors are sent (301, permanently), e.g. "/conference/new-slug"',
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { select: { title: 'from', subtitle: 'to' } },
})
