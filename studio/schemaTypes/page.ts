import { DocumentTextIcon } from '@sanity/icons'
import { defineArrayMember, defineField, defineType } from 'sanity'
import { documentRules } from '../lib/schemaRules.ts'
import { imageWithAlt } from './image.ts'
import { placeholdersField, placeholdersGroup } from './placeholders.ts'
import { richText } from './richText.ts'

/** The content pages the site has routes for; a page's slug picks which one it fills. */
const PAGE_SLUGS = [
  'home',
  'conference',
  'workshop',
  'mission',
  'vision',
  'values',
  'terms',
  'sponsorship',
  'inhouse-training',
  'online-training',
  'privacy',
] as const

export const page = defineType({
  name: 'page',
  title: 'Page',
  type: 'document',
  icon: DocumentTextIcon,
  validation: documentRules('page'),
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'home', title: 'Home page blocks' },
    { name: 'seo', title: 'Search and sharing' },
    placeholdersGroup,
  ],
  fields: [
    defineField({
      name: 'slug',
      type: 'slug',
      group: 'content',
      description: `Which page this is: ${PAGE_SLUGS.join(', ')}`,
      validation: (rule) =>
        rule
          .required()
          .custom((slug: { current?: string } | undefined) =>
            slug?.current && !(PAGE_SLUGS as readonly string[]).includes(slug.current)
              ? `The site has no page "${slug.current}"; use one of ${PAGE_SLUGS.join(', ')}`
              : true,
          ),
    }),
    defineField({
      name: 'title',
      type: 'string',
      group: 'content',
      description: 'The main heading of the page',
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'subtitle', type: 'string', group: 'content' }),
    imageWithAlt({ name: 'heroImage', title: 'Hero image', group: 'content' }),
    richText({ name: 'intro', group: 'content' }),
    defineField({
      name: 'sections',
      type: 'array',
      group: 'content',
      of: [
        defineArrayMember({
          name: 'section',
          type: 'object',
          fields: [
            defineField({ name: 'heading', type: 'string' }),
            richText({ name: 'body', description: 'Paragraphs and bullet lists (the list button in the toolbar), with bold, italics and links' }),
          ],
          preview: { select: { title: 'heading' } },
        }),
      ],
    }),
    defineField({
      name: 'cards',
      type: 'array',
      group: 'home',
      of: [
        defineArrayMember({
          name: 'card',
          type: 'object',
          fields: [
            defineField({ name: 'title', type: 'string', validation: (rule) => rule.required() }),
            defineField({ name: 'text', type: 'text', rows: 3 }),
            defineField({
              name: 'href',
              title: 'Link',
              type: 'string',
              description: 'A path on this site, e.g. "/mission"',
            }),
          ],
          preview: { select: { title: 'title', subtitle: 'href' } },
        }),
      ],
    }),
    defineField({
      name: 'statistics',
      type: 'array',
      group: 'home',
      of: [
        defineArrayMember({
          name: 'statistic',
          type: 'object',
          fields: [
            defineField({ name: 'value', type: 'string', description: 'e.g. "1250+"', validation: (rule) => rule.required() }),
            defineField({ name: 'label', type: 'string', validation: (rule) => rule.required() }),
          ],
          preview: { select: { title: 'value', subtitle: 'label' } },
        }),
      ],
    }),
    defineField({ name: 'contactTitle', title: 'Contact block title', type: 'string', group: 'home' }),
    defineField({ name: 'contactSubtitle', title: 'Contact block subtitle', type: 'string', group: 'home' }),
    defineField({
      name: 'seoDescription',
      title: 'Description for search and sharing',
      type: 'text',
      rows: 3,
      group: 'seo',
      validation: (rule) => [rule.required(), rule.max(160).warning('Search engines cut descriptions after about 160 characters')],
    }),
    placeholdersField,
  ],
  preview: {
    select: { title: 'title', slug: 'slug.current', media: 'heroImage' },
    prepare: ({ title, slug, media }) => ({ title, subtitle: slug === 'home' ? '/' : `/${slug ?? ''}`, media }),
  },
})
