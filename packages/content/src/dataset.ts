import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { imageSize } from 'image-size'

/** A document as stored in a Sanity dataset. */
export interface SanityDocument {
  _id: string
  _type: string
  [field: string]: unknown
}

/** A file the dataset refers to through an asset document, served by the local endpoint. */
export interface DatasetAssetFile {
  /** Absolute path on disk. */
  filePath: string
  /** Path relative to the dataset's directory, e.g. "images/speaker.svg"; also the path under the asset base URL. */
  relativePath: string
  mimeType: string
}

/** The documents of an NDJSON dataset after import-style asset rewriting. */
export interface LoadedDataset {
  /** Every document, drafts included, plus one synthetic asset document per referenced file. */
  documents: SanityDocument[]
  /** Referenced asset files by their relative path. */
  assetFiles: Map<string, DatasetAssetFile>
}

/** Options for reading an NDJSON dataset. */
export interface LoadDatasetOptions {
  /** Path of the `.ndjson` file (the format of `sanity dataset export` / `import`). */
  datasetPath: string
  /** URL path that asset URLs start with, e.g. "/_content"; asset URLs become `${assetBasePath}/images/<file>`. */
  assetBasePath: string
}

const MIME_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
}

/** The MIME type for a file name, by extension. */
function mimeTypeFor(fileName: string): string {
  return MIME_TYPES[extensionOf(fileName)] ?? 'application/octet-stream'
}

function extensionOf(fileName: string): string {
  return path.extname(fileName).slice(1).toLowerCase()
}

// `sanity dataset import` accepts `image@file://./images/x.svg` (relative to the NDJSON file) and
// `file@file://...`; remote `image@https://...` sources would need a download, which the local
// endpoint deliberately never does.
const ASSET_SOURCE = /^(image|file)@file:\/\/(.+)$/

/**
 * Reads an NDJSON dataset and rewrites `_sanityAsset` image/file objects into asset references
 * plus `sanity.imageAsset` / `sanity.fileAsset` documents, as `sanity dataset import` would.
 */
export async function loadDataset({ datasetPath, assetBasePath }: LoadDatasetOptions): Promise<LoadedDataset> {
  const [text, fileStat] = await Promise.all([readFile(datasetPath, 'utf8'), stat(datasetPath)])
  const datasetDir = path.dirname(path.resolve(datasetPath))
  const importedAt = fileStat.mtime.toISOString()
  const rawDocuments = parseNdjson(text, datasetPath)

  const assetDocuments = new Map<string, SanityDocument>()
  const assetFiles = new Map<string, DatasetAssetFile>()
  const assetIdsBySource = new Map<string, string>()

  async function assetIdFor(source: string, where: string): Promise<string> {
    const known = assetIdsBySource.get(source)
    if (known) return known
    const match = ASSET_SOURCE.exec(source)
    if (!match) {
      throw new Error(`${where}: unsupported _sanityAsset "${source}" (only image@file:// and file@file:// are supported)`)
    }
    const kind = match[1] as 'image' | 'file'
    const filePath = path.resolve(datasetDir, decodeAssetPath(match[2] ?? '', where))
    const relativePath = path.relative(datasetDir, filePath).split(path.sep).join('/')
    if (relativePath.startsWith('..') || path.isAbsolute(relativePath)) {
      throw new Error(`${where}: asset "${source}" lies outside the dataset directory`)
    }
    const content = await readFile(filePath).catch((error: unknown) => {
      throw new Error(`${where}: cannot read asset "${source}": ${(error as Error).message}`, { cause: error })
    })
    const asset = describeAsset({ kind, content, relativePath, url: `${assetBasePath}/${relativePath}`, where })
    asset._createdAt = importedAt
    asset._updatedAt = importedAt
    assetDocuments.set(asset._id, asset)
    assetFiles.set(relativePath, { filePath, relativePath, mimeType: asset.mimeType as string })
    assetIdsBySource.set(source, asset._id)
    return asset._id
  }

  async function rewriteAssets(value: unknown, where: string): Promise<unknown> {
    if (Array.isArray(value)) {
      return Promise.all(value.map((item) => rewriteAssets(item, where)))
    }
    if (value === null || typeof value !== 'object') return value
    const { _sanityAsset: source, ...fields } = value as Record<string, unknown>
    const rewritten: Record<string, unknown> = {}
    for (const [key, field] of Object.entries(fields)) {
      rewritten[key] = await rewriteAssets(field, where)
    }
    if (typeof source === 'string') {
      rewritten.asset = { _type: 'reference', _ref: await assetIdFor(source, where) }
    }
    return rewritten
  }

  const documents: SanityDocument[] = []
  for (const raw of rawDocuments) {
    const document = (await rewriteAssets(raw, `document "${raw._id}"`)) as SanityDocument
    document._createdAt ??= importedAt
    document._updatedAt ??= importedAt
    documents.push(document)
  }
  const storedIds = new Set(documents.map((document) => document._id))
  for (const asset of assetDocuments.values()) {
    if (!storedIds.has(asset._id)) documents.push(asset)
  }
  return { documents, assetFiles }
}

function decodeAssetPath(encoded: string, where: string): string {
  try {
    return decodeURI(encoded)
  } catch (error) {
    throw new Error(`${where}: malformed asset path "${encoded}"`, { cause: error })
  }
}

function parseNdjson(text: string, datasetPath: string): SanityDocument[] {
  const documents: SanityDocument[] = []
  const lines = text.split(/\r?\n/)
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    let parsed: unknown
    try {
      parsed = JSON.parse(line)
    } catch (error) {
      throw new Error(`${datasetPath}:${index + 1}: invalid JSON: ${(error as Error).message}`, { cause: error })
    }
    const candidate = parsed as Partial<SanityDocument> | null
    if (!candidate || typeof candidate !== 'object' || typeof candidate._id !== 'string' || typeof candidate._type !== 'string') {
      throw new Error(`${datasetPath}:${index + 1}: a document needs string _id and _type`)
    }
    documents.push(candidate as SanityDocument)
  })
  return documents
}

function describeAsset(input: { kind: 'image' | 'file'; content: Buffer; relativePath: string; url: string; where: string }): SanityDocument {
  const { kind, content, relativePath, url, where } = input
  const sha1 = createHash('sha1').update(content).digest('hex')
  const originalFilename = path.posix.basename(relativePath)
  const rawExtension = extensionOf(originalFilename)
  // Sanity names JPEG assets with the "jpg" extension whatever the upload was called.
  const extension = rawExtension === 'jpeg' ? 'jpg' : rawExtension
  const common = {
    assetId: sha1,
    sha1hash: sha1,
    extension,
    mimeType: mimeTypeFor(originalFilename),
    originalFilename,
    size: content.byteLength,
    url,
  }
  if (kind === 'file') {
    return { _id: `file-${sha1}-${extension}`, _type: 'sanity.fileAsset', ...common }
  }
  const { width, height } = imageDimensions(content, where, relativePath)
  return {
    _id: `image-${sha1}-${width}x${height}-${extension}`,
    _type: 'sanity.imageAsset',
    ...common,
    metadata: {
      _type: 'sanity.imageMetadata',
      dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height },
    },
  }
}

function imageDimensions(content: Buffer, where: string, relativePath: string): { width: number; height: number } {
  try {
    const { width, height } = imageSize(content)
    if (width > 0 && height > 0) return { width, height }
  } catch {
    // Reported below with the dataset location, which is what the author needs to fix it.
  }
  throw new Error(`${where}: cannot read the dimensions of image "${relativePath}" (SVGs need width and height or a viewBox)`)
}

/** Sanity perspectives the local endpoint understands. */
export type Perspective = 'published' | 'drafts' | 'raw'

const DRAFTS_PREFIX = 'drafts.'

// Documents in an id path ("drafts.x", "versions.r1.x") are not published documents.
function isPublishedId(id: string): boolean {
  return !id.includes('.')
}

/**
 * The documents a query sees under a perspective, following Sanity: `published` hides drafts and
 * release versions; `drafts` shows each draft in place of its published document (with the published
 * `_id` and the draft's id in `_originalId`); `raw` shows everything as stored.
 */
export function documentsForPerspective(documents: SanityDocument[], perspective: Perspective): SanityDocument[] {
  if (perspective === 'raw') return documents
  const published = documents.filter((document) => isPublishedId(document._id))
  if (perspective === 'published') return published
  const drafts = new Map<string, SanityDocument>()
  for (const document of documents) {
    if (document._id.startsWith(DRAFTS_PREFIX)) {
      const publishedId = document._id.slice(DRAFTS_PREFIX.length)
      drafts.set(publishedId, { ...document, _id: publishedId, _originalId: document._id })
    }
  }
  const overlaid = published.map((document) => drafts.get(document._id) ?? document)
  const publishedIds = new Set(published.map((document) => document._id))
  for (const [id, draft] of drafts) {
    if (!publishedIds.has(id)) overlaid.push(draft)
  }
  return overlaid
}
