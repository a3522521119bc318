import type { RichText } from '@events/content/browser'

/**
 * Rich text an editor wrote, as the server rendered it (see renderRichText in @events/content): the HTML is made by
 * React from Portable Text, with text escaped and only safe links, so the browser never loads a renderer for it.
 */
export function RichTextHtml({ value, className }: { value: RichText; className?: string }) {
  return <div className={className ? `rich-text ${className}` : 'rich-text'} dangerouslySetInnerHTML={{ __html: value.html }} />
}
