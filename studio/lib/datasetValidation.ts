import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { evaluate, parse } from 'groq-js'
import { imageSize } from 'image-size'
import { createSchema, validateDocument, type SanityClient, type SanityDocument, type Schema, type ValidationMarker, type Workspace } from 'sanity'
import { schemaTypes } from '../schemaTypes/index.ts'

/** A validation problem of one document, as the studio would show it. */
export interface DocumentMarker {
  documentId: string
  level: 'error' | 'warning' | 'info'
  path: string
  message: string
}

/** The studio schema compiled as the studio compiles it; throws when the schema itself has errors. */
export function compileStudioSchema(): Schema {
  const schema = createSchema({ name: 'default', types: schemaTypes })
  const problems = (schema._validation ?? []).flatMap((group) =>
    group.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${group.path.map((segment) => segment.name).join('.')}: ${problem.message}`),
  )
  if (problems.length > 0) throw new Error(`The studio schema has errors:\n${problems.join('\n')}`)
  return schema
}

/** Reads an NDJSON dataset. */
export async function readNdjson(file: string): Promise<SanityDocument[]> {
  const text = await readFile(file, 'utf8')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SanityDocument)
}

// `sanity dataset import` uploads each `_sanityAsset` file and replaces it with a reference to the new asset
// document; doing the same here lets reference checks cover images and fails on missing files.
async function importAssets(value: unknown, datasetDir: string, assetIds: Set<string>): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => importAssets(item, datasetDir, assetIds)))
  if (value === null || typeof value !== 'object') return value
  const { _sanityAsset: source, ...fields } = value as Record<string, unknown>
  const result: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(fields)) result[key] = await importAssets(field, datasetDir, assetIds)
  if (typeof source === 'string') {
    const match = /^image@file:\/\/\.\/(.+)$/.exec(source)
    if (!match?.[1]) throw new Error(`Unsupported asset source ${source}`)
    const content = await readFile(path.join(datasetDir, match[1]))
    const { width, height } = imageSize(content)
    const id = `image-${createHash('sha1').update(content).digest('hex')}-${width}x${height}-${path.extname(match[1]).slice(1)}`
    assetIds.add(id)
    result.asset = { _type: 'reference', _ref: id }
  }
  return result
}

/** The documents as they are after `sanity dataset import`, and the ids of the asset documents it would create. */
export async function importedDocuments(documents: SanityDocument[], datasetDir: string) {
  const assetIds = new Set<string>()
  const imported = (await Promise.all(documents.map((document) => importAssets(document, datasetDir, assetIds)))) as SanityDocument[]
  return { documents: imported, assetIds }
}

// Custom rules query the Content Lake (slug uniqueness, the event's price options); here GROQ runs over the
// dataset itself, so the rules are checked exactly as the studio runs them.
function datasetClient(documents: SanityDocument[]): SanityClient {
  const client = {
    fetch: async (query: string, params: Record<string, unknown> = {}) => (await evaluate(parse(query, { params }), { dataset: documents, params })).get(),
    withConfig: () => client,
    clone: () => client,
    config: () => ({}),
  }
  return client as unknown as SanityClient
}

function toMarker(documentId: string, marker: ValidationMarker): DocumentMarker {
  return {
    documentId,
    level: marker.level,
    path: marker.path
      .map((segment, index) => {
        if (typeof segment === 'object' && segment !== null && '_key' in segment) return `[_key=="${segment._key}"]`
        if (typeof segment === 'number') return `[${segment}]`
        return `${index === 0 ? '' : '.'}${String(segment)}`
      })
      .join(''),
    message: marker.message,
  }
}

/** One line per problem, as `pnpm content:validate` prints it: level, document id, path and message. */
export function formatMarker({ level, documentId, path, message }: DocumentMarker): string {
  return `${level} ${documentId}${path === '' ? '' : ` ${path}`}: ${message}`
}

const LEVEL_ORDER = { error: 0, warning: 1, info: 2 }

/**
 * The Studio's validation of an NDJSON dataset file, as `pnpm content:validate` runs it: the images it names are
 * resolved from the folder it is in, as `sanity dataset import` would; errors first.
 */
export async function validateDatasetFile(file: string): Promise<{ documents: number; markers: DocumentMarker[] }> {
  const { documents, assetIds } = await importedDocuments(await readNdjson(file), path.dirname(file))
  const markers = await validateDataset(documents, assetIds)
  return { documents: documents.length, markers: markers.sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]) }
}

/**
 * Validates every document against the studio schema and its rules. The rules run as the studio runs them
 * (environment "studio"); a second pass as the CLI runs them adds its warnings about fields the schema does
 * not know. (The CLI pass alone would report the rules of object fields such as images and slugs only as
 * warnings.)
 */
export async function validateDataset(documents: SanityDocument[], extraExistingIds: Iterable<string> = []): Promise<DocumentMarker[]> {
  const schema = compileStudioSchema()
  const client = datasetClient(documents)
  const existing = new Set([...documents.map((document) => document._id), ...extraExistingIds])
  // validateDocument reads only the schema (and an optional i18n source) from the workspace.
  const workspace = { schema } as unknown as Workspace
  const validate = (document: SanityDocument, environment: 'studio' | 'cli') =>
    validateDocument({
      document,
      workspace,
      environment,
      getClient: () => client,
      getDocumentExists: async ({ id }) => existing.has(id),
    })
  const markers = await Promise.all(
    documents.map(async (document) => {
      const [asStudio, asCli] = await Promise.all([validate(document, 'studio'), validate(document, 'cli')])
      const studioMarkers = asStudio.map((marker) => toMarker(document._id, marker))
      const seen = new Set(studioMarkers.map((marker) => `${marker.path}\n${marker.message}`))
      const cliOnly = asCli.map((marker) => toMarker(document._id, marker)).filter((marker) => !seen.has(`${marker.path}\n${marker.message}`))
      return [...studioMarkers, ...cliOnly]
    }),
  )
  return markers.flat()
}
