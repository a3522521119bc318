import type { ContentQueryResults } from '@events/content/browser'
import { RichTextHtml } from './RichTextHtml'

/** The authored body of a content page: intro, sections with bullets, and a closing bullet list. */
export function PageSections({ page }: { page: NonNullable<ContentQueryResults['page']> }) {
  return (
    <>
      {page.intro?.html && <RichTextHtml className="lead preserve-lines" value={page.intro} />}
      {page.sections?.map((section) => (
        <section key={section._key}>
          {section.heading && <h2>{section.heading}</h2>}
          {section.body?.html && <RichTextHtml className="preserve-lines" value={section.body} />}
          {(section.bullets?.length ?? 0) > 0 && (
            <ul>
              {section.bullets?.map((bullet) => (
                <li key={bullet}>{bullet}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      {(page.bullets?.length ?? 0) > 0 && (
        <ul className="bullet-list">
          {page.bullets?.map((bullet) => (
            <li key={bullet}>{bullet}</li>
          ))}
        </ul>
      )}
    </>
  )
}
