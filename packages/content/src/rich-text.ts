import { PortableText, toPlainText, type PortableTextBlock, type PortableTextComponents } from '@portabletext/react'
import { createElement, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { safeHref } from './rich-text-links.ts'

// Rich text (Portable Text) is rendered to HTML here, on the server, next to the images' URLs, so pages get ready
// markup and the browser bundle carries no Portable Text renderer (the public pages' script budget is nearly spent).

/** A rich-text field as pages receive it: its HTML, and its plain text for previews and descriptions. */
export type RichText = { html: string; text: string }

/** A Portable Text block as stored: text spans with marks, an optional list item, and the marks' definitions. */
type Block = { _type: 'block' } & Record<string, unknown>

const components: PortableTextComponents = {
  marks: {
    link: ({ value, children }: { value?: { href?: unknown }; children: ReactNode }) => {
      const href = safeHref(value?.href)
      if (!href) return createElement('span', null, children)
      const external = /^https?:\/\//i.test(href)
      return createElement('a', external ? { href, rel: 'noopener noreferrer' } : { href }, children)
    },
  },
  // Anything the schema does not allow (a pasted type, a style from elsewhere) shows as its text, not as a warning.
  unknownType: () => null,
  unknownMark: ({ children }: { children: ReactNode }) => createElement('span', null, children),
  unknownBlockStyle: ({ children }: { children?: ReactNode }) => createElement('p', null, children),
}

/** The HTML and plain text of Portable Text blocks. */
export function renderRichText(blocks: readonly Block[]): RichText {
  const value = blocks as unknown as PortableTextBlock[]
  return {
    html: renderToStaticMarkup(createElement(PortableText, { value, components, onMissingComponent: false })),
    text: toPlainText(value),
  }
}

const isBlockArray = (value: readonly unknown[]): value is Block[] =>
  value.length > 0 && value.every((item) => item !== null && typeof item === 'object' && (item as { _type?: unknown })._type === 'block')

/** A query result with each Portable Text field replaced by its HTML and plain text. */
export type WithRichText<T> = T extends readonly { _type: 'block' }[]
  ? RichText
  : T extends readonly (infer Item)[]
    ? WithRichText<Item>[]
    : T extends object
      ? { [Key in keyof T]: WithRichText<T[Key]> }
      : T

/** Replaces every Portable Text field of a query result with its HTML and plain text (see renderRichText). */
export function withRichText<T>(value: T): WithRichText<T> {
  if (Array.isArray(value)) {
    if (isBlockArray(value)) return renderRichText(value) as WithRichText<T>
    return value.map((item: unknown) => withRichText(item)) as WithRichText<T>
  }
  if (value === null || typeof value !== 'object') return value as WithRichText<T>
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withRichText(field)])) as WithRichText<T>
}
