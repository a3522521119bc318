// Portable Text blocks made from plain text: the shipped dataset's source writes prose as strings, and projects
// that stored prose as strings before it became rich text are moved by studio/migrations/2026-11-27-rich-text.
// Keys come from a prefix and the position, so the generated dataset is the same on every run.

export type TextBlock = {
  _type: 'block'
  _key: string
  style: 'normal'
  markDefs: { _type: 'link'; _key: string; href: string }[]
  children: { _type: 'span'; _key: string; text: string; marks: string[] }[]
  listItem?: 'bullet'
  level?: 1
}

/** A run of a paragraph: plain text, or text in bold (`strong`) or italics (`em`), or a link. */
export type Inline = string | { text: string; marks?: ('strong' | 'em')[]; href?: string }

function textBlock(key: string, text: string, list: boolean): TextBlock {
  return {
    _type: 'block',
    _key: key,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `${key}-text`, text, marks: [] }],
    ...(list ? { listItem: 'bullet' as const, level: 1 as const } : {}),
  }
}

/** One paragraph per blank-line-separated part of the text (single line breaks stay inside a paragraph). */
export function paragraphBlocks(keyPrefix: string, text: string): TextBlock[] {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => textBlock(`${keyPrefix}-${index + 1}`, part, false))
}

/** One item of a bullet list, plain text. */
export function bulletItem(key: string, text: string): TextBlock {
  return textBlock(key, text.trim(), true)
}

/** A bullet list, one item per string. */
export function bulletBlocks(keyPrefix: string, items: readonly string[]): TextBlock[] {
  return items
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => textBlock(`${keyPrefix}-${index + 1}`, item, true))
}

/** A paragraph with bold, italic or linked runs, as an editor writes it in the studio's rich-text field. */
export function richParagraph(key: string, runs: readonly Inline[]): TextBlock {
  return richBlock(key, runs, false)
}

/** An item of a bullet list with bold, italic or linked runs. */
export function richBulletItem(key: string, runs: readonly Inline[]): TextBlock {
  return richBlock(key, runs, true)
}

function richBlock(key: string, runs: readonly Inline[], list: boolean): TextBlock {
  const markDefs: TextBlock['markDefs'] = []
  const children = runs.map((run, index) => {
    const spanKey = `${key}-${index + 1}`
    if (typeof run === 'string') return { _type: 'span' as const, _key: spanKey, text: run, marks: [] }
    const marks: string[] = [...(run.marks ?? [])]
    if (run.href !== undefined) {
      markDefs.push({ _type: 'link', _key: `${spanKey}-link`, href: run.href })
      marks.push(`${spanKey}-link`)
    }
    return { _type: 'span' as const, _key: spanKey, text: run.text, marks }
  })
  return { _type: 'block', _key: key, style: 'normal', markDefs, children, ...(list ? { listItem: 'bullet' as const, level: 1 as const } : {}) }
}
