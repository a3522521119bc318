import { defineArrayMember, defineField } from 'sanity'
import { safeHref } from '@events/content/rich-text-links'

type RichTextField = { name: string; title?: string; description?: string; group?: string }

/**
 * Prose editors format: paragraphs with bold, italics, links and bullet or numbered lists, nothing else (no headings,
 * so a page keeps its outline). The site renders it to HTML on the server; links must be web, mail, phone or
 * site-relative, the same rule the site applies when it renders them.
 */
export function richText({ name, title, description, group }: RichTextField) {
  return defineField({
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(group === undefined ? {} : { group }),
    type: 'array',
    of: [
      defineArrayMember({
        type: 'block',
        styles: [{ title: 'Normal', value: 'normal' }],
        lists: [
          { title: 'Bullet', value: 'bullet' },
          { title: 'Numbered', value: 'number' },
        ],
        marks: {
          decorators: [
            { title: 'Strong', value: 'strong' },
            { title: 'Emphasis', value: 'em' },
          ],
          annotations: [
            defineField({
              name: 'link',
              type: 'object',
              title: 'Link',
              fields: [
                defineField({
                  name: 'href',
                  title: 'URL',
                  type: 'string',
                  description: 'https://…, mailto:…, tel:… or a path on this site such as /terms',
                  validation: (rule) =>
                    rule
                      .required()
                      .custom((href: string | undefined) =>
                        href === undefined || safeHref(href) ? true : 'Use a web address (https://…), mailto:, tel: or a path on this site starting with /',
                      ),
                }),
              ],
            }),
          ],
        },
      }),
    ],
  })
}
