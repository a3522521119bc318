import type { ContentDocument } from './rules.ts'

/** The documents of an NDJSON dataset (one JSON document a line); throws naming the line that is not one. */
export function parseNdjson(text: string): ContentDocument[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return []
    const document = JSON.parse(line) as Partial<ContentDocument>
    if (typeof document._id !== 'string' || typeof document._type !== 'string') {
      throw new Error(`Line ${index + 1} is not a document with an _id and a _type`)
    }
    return [document as ContentDocument]
  })
}
