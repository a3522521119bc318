import { BlockElementIcon } from '@sanity/icons'
import { defineField, defineType } from 'sanity'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'

export const division = defineType({
  name: 'division',
  title: 'Division',
  type: 'document',
  icon: BlockElementIcon,
  groups: [{ name: 'content', title: 'Division', default: true }, placeholdersGroup],
  fields: [
    defineField({ name: 'title', type: 'string', group: 'content', validation: (rule) => rule.required() }),
    defineField({ name: 'description', type: 'text', rows: 3, group: 'content' }),
    defineField({
      name: 'order',
      type: 'number',
      group: 'content',
      description: 'Position in the home page grid, smallest first',
      validation: (rule) => rule.integer(),
    }),
    defineField({
      name: 'href',
      title: 'Link',
      type: 'string',
      group: 'content',
      description: 'A path on this site, e.g. "/conference" or "/?interest=other#contact"',
      validation: (rule) => rule.required().custom((href: string | undefined) => (href && !href.startsWith('/') ? 'Use a path that starts with "/"' : true)),
    }),
    placeholdersField,
  ],
  orderings: [{ title: 'Order', name: 'order', by: [{ field: 'order', direction: 'asc' }] }],
  preview: { select: { title: 'title', subtitle: 'href' } },
})
