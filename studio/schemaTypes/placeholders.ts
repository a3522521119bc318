import { defineField } from 'sanity'

/**
 * The `placeholders` field every document type carries: the paths of fields whose values are still invented
 * (the specification omits them). The site lists what remains at startup and build, so the list must shrink
 * to nothing before launch; the warning keeps it visible to editors.
 */
export const placeholdersField = defineField({
  name: 'placeholders',
  title: 'Placeholder fields',
  type: 'array',
  of: [{ type: 'string' }],
  description: 'Fields that still hold placeholder values; remove an entry after replacing the value',
  group: 'placeholders',
  options: { layout: 'tags' },
  validation: (rule) =>
    rule
      .unique()
      .custom((paths: string[] | undefined) => (paths && paths.length > 0 ? `Still placeholder values: ${paths.join(', ')}` : true))
      .warning(),
})

/** The field group the placeholders field sits in, so it stays out of the editors' main form. */
export const placeholdersGroup = { name: 'placeholders', title: 'Placeholders' }
