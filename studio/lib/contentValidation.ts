import { checkDocument, formatPath, type ContentDocument, type Problem } from './rules.ts'

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

/** Every problem the content rules find in a dataset, references resolved within it; errors first. */
export function validateContent(documents: ContentDocument[]): Problem[] {
  const byId = new Map(documents.map((document) => [document._id, document]))
  const ofType = (type: string) => documents.filter((document) => document._type === type)
  const problems = documents.flatMap((document) => checkDocument(document, (id) => byId.get(id), ofType))
  return [...problems.filter((problem) => problem.level === 'error'), ...problems.filter((problem) => problem.level === 'warning')]
}

/** One line per problem: level, document id, path and message. */
export function formatProblem({ level, documentId, path, message }: Problem): string {
  return `${level} ${documentId} ${formatPath(path)}: ${message}`
}
