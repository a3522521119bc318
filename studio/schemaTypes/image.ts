import { defineField } from 'sanity'

type ImageFieldOptions = { name: string; title?: string; description?: string; required?: boolean; group?: string }

/** An image field with the alternative text the site needs for accessibility; the text is required when the image is. */
export function imageWithAlt({ name, title, description, required = false, group }: ImageFieldOptions) {
  return defineField({
    name,
    title,
    description,
    group,
    type: 'image',
    options: { hotspot: true },
    fields: [
      defineField({
        name: 'alt',
        title: 'Alternative text',
        type: 'string',
        description: 'Describes the image for screen readers; for logos, the company name',
        validation: (rule) =>
          rule.custom((alt: string | undefined, context) => {
            const image = context.parent as { asset?: unknown } | undefined
            return image?.asset && !alt?.trim() ? 'Describe the image' : true
          }),
      }),
    ],
    validation: required ? (rule) => rule.required() : undefined,
  })
}
