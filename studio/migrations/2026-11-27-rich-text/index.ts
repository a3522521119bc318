// `sanity migration run 2026-11-27-rich-text` (from studio/): prose stored as plain text before it became Portable
// Text (event overviews, page introductions and section bodies, speaker bios) becomes blocks: a paragraph per
// blank-line-separated part, and the key messages and objectives, lists of strings before, become bullet lists.
// Fields already holding blocks are left alone, so the migration can run again.
import { bulletBlocks, paragraphBlocks, type TextBlock } from '@events/content/text-blocks'
import { at, defineMigration, set, type NodePatch } from 'sanity/migrate'

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')

/** The blocks of a field still in its plain shape (a string, or a list of strings), or undefined when it needs none. */
export function blocksOf(keyPrefix: string, value: unknown): TextBlock[] | undefined {
  if (typeof value === 'string') return paragraphBlocks(keyPrefix, value)
  if (isStringList(value)) return bulletBlocks(keyPrefix, value)
  return undefined
}

type Document = Record<string, unknown>

function patchesFor(document: Document): NodePatch[] {
  const patches: NodePatch[] = []
  const move = (path: (string | { _key: string })[], keyPrefix: string, value: unknown) => {
    const blocks = blocksOf(keyPrefix, value)
    if (blocks) patches.push(at(path, set(blocks)))
  }
  if (document._type === 'speaker') move(['bio'], 'bio', document.bio)
  if (document._type === 'event') {
    const overview = (document.overview ?? {}) as Document
    move(['overview', 'theme'], 'theme', overview.theme)
    move(['overview', 'keyMessages'], 'key-message', overview.keyMessages)
    move(['overview', 'objectives'], 'objective', overview.objectives)
  }
  if (document._type === 'page') {
    move(['intro'], 'intro', document.intro)
    const sections = Array.isArray(document.sections) ? (document.sections as Document[]) : []
    for (const section of sections) {
      if (typeof section._key === 'string') move(['sections', { _key: section._key }, 'body'], `${section._key}-body`, section.body)
    }
  }
  return patches
}

export default defineMigration({
  title: 'Prose as rich text (Portable Text blocks from plain strings)',
  documentTypes: ['event', 'page', 'speaker'],
  migrate: {
    document(document) {
      const patches = patchesFor(document as Document)
      return patches.length > 0 ? patches : undefined
    },
  },
})
