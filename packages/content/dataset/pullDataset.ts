// Copies a Sanity project's dataset into the shipped dataset's format: production.ndjson with image@file://
// references and the image files beside it in images/, so the site runs on a snapshot of real content.
import { createHash } from 'node:crypto'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { DEFAULT_SANITY_API_VERSION } from '../src/client.ts'
import type { SanityDocument } from '../src/dataset.ts'
import { DATASET_FILE } from './build.ts'

/** Where to pull from and where to write. */
export interface PullOptions {
  projectId: string
  dataset: string
  /** A token with read access; needed for a private dataset (and to include drafts). */
  token?: string
  apiVersion?: string
  /** The API's origin. Default `https://<projectId>.api.sanity.io`. */
  apiHost?: string
  /** Directory that receives `production.ndjson` and `images/`. */
  outDir: string
  /** How many files are downloaded at once. Default 4. */
  concurrency?: number
}

/** What {@link pullDataset} wrote. */
export interface PullResult {
  documents: number
  files: number
  datasetPath: string
}

/** The environment variables `pnpm content:pull` reads: the ones the site reads its content with. */
export interface PullEnv {
  SANITY_PROJECT_ID?: string
  SANITY_DATASET?: string
  SANITY_API_READ_TOKEN?: string
  SANITY_API_VERSION?: string
  /** Another API origin than `https://<projectId>.api.sanity.io` (a proxy, or a test server). */
  SANITY_API_HOST?: string
}

/** The pull settings from the environment; throws a message naming what is missing. */
export function pullOptionsFromEnv(env: PullEnv, outDir: string): PullOptions {
  const missing = (['SANITY_PROJECT_ID', 'SANITY_DATASET'] as const).filter((name) => !env[name]?.trim())
  if (missing.length > 0) {
    throw new Error(`Set ${missing.join(' and ')} to the Sanity project and dataset to pull (and SANITY_API_READ_TOKEN for a private dataset)`)
  }
  return {
    projectId: env.SANITY_PROJECT_ID!.trim(),
    dataset: env.SANITY_DATASET!.trim(),
    token: env.SANITY_API_READ_TOKEN?.trim() || undefined,
    apiVersion: env.SANITY_API_VERSION?.trim() || undefined,
    apiHost: env.SANITY_API_HOST?.trim() || undefined,
    outDir,
  }
}

const ASSET_TYPES: Record<string, 'image' | 'file'> = { 'sanity.imageAsset': 'image', 'sanity.fileAsset': 'file' }
const FOLDERS = { image: 'images', file: 'files' } as const

export interface AssetFile {
  kind: 'image' | 'file'
  url: string
  sha1hash: string | undefined
  /** Path relative to the output directory, e.g. "images/3a5…-1200x800.jpg". */
  relativePath: string
}

// Documents that are Sanity's own bookkeeping (`_.` ids) or short-lived preview secrets are not content.
function isContent(document: SanityDocument): boolean {
  return !document._id.startsWith('_.') && document._type !== 'sanity.previewUrlSecret'
}

/**
 * Downloads the dataset through Sanity's export endpoint, downloads every image and file it references, and writes
 * them to `outDir` as `sanity dataset import` and the site's local content source read them. Nothing in `outDir` is
 * touched until every download has succeeded.
 */
export async function pullDataset(options: PullOptions): Promise<PullResult> {
  const apiHost = (options.apiHost ?? `https://${options.projectId}.api.sanity.io`).replace(/\/+$/, '')
  const apiVersion = options.apiVersion ?? DEFAULT_SANITY_API_VERSION
  const exportUrl = `${apiHost}/v${apiVersion}/data/export/${encodeURIComponent(options.dataset)}`
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {}

  const response = await fetch(exportUrl, { headers })
  if (!response.ok) {
    throw new Error(`${exportUrl} answered ${response.status}: ${await errorDescription(response)}${hintFor(response.status)}`)
  }
  const exported = parseExport(await response.text(), exportUrl).filter(isContent)

  const assets = new Map<string, AssetFile>()
  for (const document of exported) {
    const kind = ASSET_TYPES[document._type]
    if (kind) assets.set(document._id, assetFile(document, kind))
  }
  const documents = exported
    .filter((document) => !ASSET_TYPES[document._type])
    .map((document) => rewriteAssetReferences(document, assets, document._id) as SanityDocument)

  const downloaded = await downloadAll([...assets.values()], options.concurrency ?? 4)

  await mkdir(options.outDir, { recursive: true })
  for (const folder of Object.values(FOLDERS)) {
    const wanted = new Set([...assets.values()].filter((asset) => asset.relativePath.startsWith(`${folder}/`)).map((asset) => path.posix.basename(asset.relativePath)))
    const folderPath = path.join(options.outDir, folder)
    if (wanted.size > 0) await mkdir(folderPath, { recursive: true })
    // Files from an earlier pull or the generated placeholders would otherwise stay beside content that no longer uses them.
    const existing = await readdir(folderPath).catch(() => [] as string[])
    await Promise.all(existing.filter((name) => !wanted.has(name)).map((name) => rm(path.join(folderPath, name))))
  }
  await Promise.all(downloaded.map(({ relativePath, content }) => writeFile(path.join(options.outDir, relativePath), content)))
  const datasetPath = path.join(options.outDir, DATASET_FILE)
  // Renamed into place, so a reader (the running site) never sees half a file.
  const partialPath = `${datasetPath}.partial`
  await writeFile(partialPath, documents.map((document) => JSON.stringify(document)).join('\n') + '\n')
  await rename(partialPath, datasetPath)
  return { documents: documents.length, files: downloaded.length, datasetPath }
}

function parseExport(text: string, exportUrl: string): SanityDocument[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      let document: Partial<SanityDocument> | null
      try {
        document = JSON.parse(line) as Partial<SanityDocument> | null
      } catch (error) {
        throw new Error(`${exportUrl}: line ${index + 1} is not JSON: ${(error as Error).message}`, { cause: error })
      }
      if (!document || typeof document._id !== 'string' || typeof document._type !== 'string') {
        throw new Error(`${exportUrl}: line ${index + 1} is not a document (no _id and _type)`)
      }
      return document as SanityDocument
    })
}

// Sanity's asset ids are `image-<sha1>-<width>x<height>-<ext>` and `file-<sha1>-<ext>`; the file keeps that name.
function assetFile(document: SanityDocument, kind: 'image' | 'file'): AssetFile {
  if (typeof document.url !== 'string') throw new Error(`Asset ${document._id} has no url to download it from`)
  const match = /^(?:image|file)-(.+)-([a-z0-9]+)$/.exec(document._id)
  if (!match) throw new Error(`Asset ${document._id} does not have the id of a Sanity asset`)
  return {
    kind,
    url: document.url,
    sha1hash: typeof document.sha1hash === 'string' ? document.sha1hash : undefined,
    relativePath: `${FOLDERS[kind]}/${match[1]}.${match[2]}`,
  }
}

// `{ _type: 'image', asset: { _ref } }` becomes `{ _type: 'image', _sanityAsset: 'image@file://./images/…' }`, the
// form `sanity dataset export` writes; hotspot, crop and alt text stay beside it.
export function rewriteAssetReferences(value: unknown, assets: Map<string, AssetFile>, documentId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteAssetReferences(item, assets, documentId))
  if (value === null || typeof value !== 'object') return value
  const rewritten: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    const assetId = key === 'asset' ? referencedId(field) : undefined
    if (assetId === undefined) {
      rewritten[key] = rewriteAssetReferences(field, assets, documentId)
      continue
    }
    const asset = assets.get(assetId)
    if (!asset) throw new Error(`Document ${documentId} uses asset ${assetId}, which the export does not contain`)
    rewritten._sanityAsset = `${asset.kind}@file://./${asset.relativePath}`
  }
  return rewritten
}

function referencedId(value: unknown): string | undefined {
  const ref = (value as { _ref?: unknown } | null)?._ref
  return typeof ref === 'string' && /^(image|file)-/.test(ref) ? ref : undefined
}

async function downloadAll(assets: AssetFile[], concurrency: number): Promise<{ relativePath: string; content: Buffer }[]> {
  const results: { relativePath: string; content: Buffer }[] = []
  let next = 0
  async function worker(): Promise<void> {
    while (next < assets.length) {
      const asset = assets[next++]!
      results.push({ relativePath: asset.relativePath, content: await download(asset) })
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, assets.length) }, worker))
  return results
}

async function download(asset: AssetFile): Promise<Buffer> {
  const response = await fetch(asset.url)
  if (!response.ok) throw new Error(`Downloading ${asset.url} failed: ${response.status} ${response.statusText}`)
  const content = Buffer.from(await response.arrayBuffer())
  const sha1 = createHash('sha1').update(content).digest('hex')
  // The local content source names the asset after the file's SHA-1, so a changed file would break its references.
  if (asset.sha1hash !== undefined && sha1 !== asset.sha1hash) {
    throw new Error(`Downloading ${asset.url} gave a file whose SHA-1 (${sha1}) is not the asset's (${asset.sha1hash})`)
  }
  return content
}

async function errorDescription(response: Response): Promise<string> {
  const text = await response.text()
  try {
    const body = JSON.parse(text) as { error?: { description?: string } | string; message?: string }
    const description = typeof body.error === 'string' ? body.message ?? body.error : body.error?.description ?? body.message
    if (description) return description
  } catch {
    // Not JSON: the text itself says what happened.
  }
  return text.slice(0, 200) || response.statusText
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return ' (set SANITY_API_READ_TOKEN to a token with read access to the dataset)'
  if (status === 404) return ' (check SANITY_PROJECT_ID and SANITY_DATASET)'
  return ''
}
