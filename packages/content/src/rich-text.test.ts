import { describe, expect, it } from 'vitest'
import { safeHref } from './rich-text-links.ts'
import { renderRichText, withRichText } from './rich-text.ts'

const span = (text: string, marks: string[] = []) => ({ _type: 'span', _key: text.slice(0, 8), text, marks })
const block = (children: object[], extra: object = {}) => ({
  _type: 'block' as const,
  _key: Math.random().toString(36).slice(2),
  style: 'normal',
  markDefs: [],
  children,
  ...extra,
})

describe('renderRichText', () => {
  it('renders paragraphs with bold and italic text', () => {
    const { html } = renderRichText([block([span('Plain, '), span('bold', ['strong']), span(' and '), span('slanted', ['em'])])])
    expect(html).toBe('<p>Plain, <strong>bold</strong> and <em>slanted</em></p>')
  })

  it('renders bullet and numbered lists', () => {
    const { html } = renderRichText([
      block([span('First')], { listItem: 'bullet', level: 1 }),
      block([span('Second')], { listItem: 'bullet', level: 1 }),
      block([span('One')], { listItem: 'number', level: 1 }),
    ])
    expect(html).toBe('<ul><li>First</li><li>Second</li></ul><ol><li>One</li></ol>')
  })

  it('renders links to the web, mail, phones and this site', () => {
    const links = ['https://example.org/a?b=1', 'mailto:info@example.org', 'tel:+27215550100', '/conference/Resilience']
    const { html } = renderRichText([
      block(
        links.map((href, index) => ({ ...span(`link ${index}`, [`l${index}`]), _key: `s${index}` })),
        { markDefs: links.map((href, index) => ({ _type: 'link', _key: `l${index}`, href })) },
      ),
    ])
    expect(html).toContain('<a href="https://example.org/a?b=1" rel="noopener noreferrer">link 0</a>')
    expect(html).toContain('<a href="mailto:info@example.org">link 1</a>')
    expect(html).toContain('<a href="tel:+27215550100">link 2</a>')
    expect(html).toContain('<a href="/conference/Resilience">link 3</a>')
  })

  it('drops an unsafe link but keeps its text', () => {
    const { html } = renderRichText([block([span('click me', ['bad'])], { markDefs: [{ _type: 'link', _key: 'bad', href: 'javascript:alert(1)' }] })])
    expect(html).toBe('<p><span>click me</span></p>')
    expect(html).not.toContain('javascript')
  })

  it('escapes text, so an editor cannot write markup', () => {
    expect(renderRichText([block([span('<script>alert(1)</script>')])]).html).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')
  })

  it('gives the plain text of a bio for its preview, paragraphs on lines of their own', () => {
    const { text } = renderRichText([
      block([span('Dr Thandi Mokoena '), span('leads', ['strong']), span(' risk at a bank.')]),
      block([span('She chairs the board.')]),
    ])
    expect(text).toBe('Dr Thandi Mokoena leads risk at a bank.\n\nShe chairs the board.')
  })
})

describe('safeHref', () => {
  it.each(['https://a.example', 'http://a.example', 'mailto:x@a.example', 'tel:+2721', '/mission'])('keeps %s', (href) => {
    expect(safeHref(href)).toBe(href)
  })
  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', '//evil.example', 'vbscript:x', '', 42])('drops %s', (href) => {
    expect(safeHref(href)).toBeUndefined()
  })
})

describe('withRichText', () => {
  it('replaces every block array of a query result and leaves other arrays alone', () => {
    const result = withRichText({
      overview: { theme: [block([span('Resilience')])], keyMessages: ['one'] },
      speakers: [{ name: 'A', bio: [block([span('Bio')])] }],
      empty: [],
    })
    expect(result).toEqual({
      overview: { theme: { html: '<p>Resilience</p>', text: 'Resilience' }, keyMessages: ['one'] },
      speakers: [{ name: 'A', bio: { html: '<p>Bio</p>', text: 'Bio' } }],
      empty: [],
    })
  })
})
