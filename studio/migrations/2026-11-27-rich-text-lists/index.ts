// `sanity migration run 2026-11-27-rich-text-lists` (from studio/): a page's bullet lists were plain strings beside its
// rich text (each section's `bullets`, and the page's own `bullets`, shown after the sections), so no item could hold
// bold, italics or a link. Each section's items become bullet list items (`listItem: 'bullet'`, `level: 1`) appended to
// the section's body; the page's own list becomes a last section, without a heading, holding the list, so it stays
// where the site showed it. The old fields are removed in the same patch, guarded by the document's revision, so the
// migration can run again (it finds nothing to move) and never overwrites an edit made while it runs.
import { bulletBlocks } from '@events/content/text-blocks'
import { at, defineMigration, patch, set, unset, type NodePatch } from 'sanity/migrate'
import { blocksOf } from '../2026-11-27-rich-text/index.ts'

type Page = Record<string, unknown> & { _id: string; _rev?: string; sections?: unknown; bullets?: unknown }
type Section = Record<string, unknown> & { _key?: string; body?: unknown; bullets?: unknown }

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])
const keyOf = (item: unknown): unknown => (item !== null && typeof item === 'object' ? (item as { _key?: unknown })._key : undefined)

/** The blocks a body holds: its blocks as they are, plain text (a project not yet through 2026-11-27-rich-text) as paragraphs. */
function bodyBlocks(sectionKey: string, body: unknown): unknown[] {
  if (body === undefined || body === null) return []
  const fromPlainText = blocksOf(`${sectionKey}-body`, body)
  if (fromPlainText) return fromPlainText
  return Array.isArray(body) ? body : []
}

/** Bullet list items keyed `<prefix>-<n>`, with a prefix no key of `taken` starts with. */
function listBlocks(prefix: string, items: string[], taken: ReadonlySet<unknown>): unknown[] {
  for (let attempt = 1; ; attempt++) {
    const blocks = bulletBlocks(attempt === 1 ? prefix : `${prefix}${attempt}`, items)
    if (blocks.every((block) => !taken.has(block._key))) return blocks
  }
}

/**
 * The page with its plain-string lists moved into its rich text: `sections` as they become, and whether the page's
 * own `bullets` field goes. Undefined when the page holds no such list (already migrated, or never had one).
 */
export function listsIntoRichText(page: Page): { sections: Section[] | undefined; removeBullets: boolean } | undefined {
  const sections = Array.isArray(page.sections) ? (page.sections as Section[]) : undefined
  const sectionsWithLists = (sections ?? []).some((section) => section !== null && typeof section === 'object' && 'bullets' in section)
  const removeBullets = 'bullets' in page
  if (!sectionsWithLists && !removeBullets) return undefined

  const moved = (sections ?? []).map((section) => {
    if (section === null || typeof section !== 'object' || !('bullets' in section)) return section
    const { bullets, ...rest } = section
    const items = strings(bullets)
    const sectionKey = typeof section._key === 'string' ? section._key : 'section'
    const body = bodyBlocks(sectionKey, section.body)
    if (items.length === 0) return rest
    return { ...rest, body: [...body, ...listBlocks(`${sectionKey}-item`, items, new Set(body.map(keyOf)))] }
  })

  const pageItems = strings(page.bullets)
    .map((item) => item.trim())
    .filter(Boolean)
  if (pageItems.length > 0) {
    const takenKeys = new Set(moved.map(keyOf))
    let key = 'section-list'
    for (let attempt = 2; takenKeys.has(key); attempt++) key = `section-list-${attempt}`
    moved.push({ _type: 'section', _key: key, body: bulletBlocks(`${key}-item`, pageItems) })
  }
  return { sections: sections === undefined && moved.length === 0 ? undefined : moved, removeBullets }
}

export default defineMigration({
  title: 'Page bullet lists as list items of the rich text (bold, italics and links in every item)',
  documentTypes: ['page'],
  migrate: {
    document(document) {
      const page = document as Page
      const result = listsIntoRichText(page)
      if (result === undefined) return undefined
      const patches: NodePatch[] = []
      if (result.sections !== undefined) patches.push(at(['sections'], set(result.sections)))
      if (result.removeBullets) patches.push(at(['bullets'], unset()))
      return patch(page._id, patches, page._rev === undefined ? undefined : { ifRevision: page._rev })
    },
  },
})
