import type { ContentQueryResults } from '@events/content/browser'
import { RichTextHtml } from './RichTextHtml'

/** The authored body of a content page: intro, then sections whose rich text carries their paragraphs and bullet lists. */
export function PageSections({ page }: { page: NonNullable<ContentQueryResults['page']> }) {
  return (
    <>
      {page.intro?.html && <RichTextHtml className="lead preserve-lines" value={page.intro} />}
      {page.sections?.map((section) => (
        <section key={section._key}>
          {section.heading && <h2>{section.heading}</h2>}
          {section.body?.html && <RichTextHtml className="preserve-lines" value={section.body} />}
        </section>
      ))}
    </>
  )
}
