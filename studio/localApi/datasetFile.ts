// The dataset file the site reads, as the local stand-in of Sanity's API holds and writes it: images become asset
// documents the studio can show (as `sanity dataset import` makes them) and, on the way back, the file's
// `image@file://./images/…` form again, so the site reads what editors publish exactly as it reads the shipped file.
import { cpSync, existsSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { loadDataset, type SanityDocument } from '@events/content'
import { rewriteAssetReferences, type AssetFile } from '@events/content/pull-dataset'

const ASSET_BASE_PATH = '/_content'
const ASSET_TYPES = new Set(['sanity.imageAsset', 'sanity.fileAsset'])

export interface LakeDataset {
  documents: SanityDocument[]
  /** Image files by the name the studio asks the CDN for, `<sha1>-<width>x<height>.<ext>`. */
  images: Map<string, { filePath: string; mimeType: string }>
  /** The dataset's files by asset id, to write the documents back in the file's form. */
  assets: Map<string, AssetFile>
}

export async function readLakeDataset(datasetPath: string): Promise<LakeDataset> {
  const { documents, assetFiles } = await loadDataset({ datasetPath, assetBasePath: ASSET_BASE_PATH })
  const images = new Map<string, { filePath: string; mimeType: string }>()
  const assets = new Map<string, AssetFile>()
  for (const asset of documents.filter((document) => ASSET_TYPES.has(document._type))) {
    const relativePath = String(asset.url).slice(ASSET_BASE_PATH.length + 1)
    assets.set(asset._id, { kind: asset._type === 'sanity.imageAsset' ? 'image' : 'file', url: String(asset.url), sha1hash: undefined, relativePath })
    const file = assetFiles.get(relativePath)
    // The CDN name of `image-<sha1>-<w>x<h>-<ext>` is `<sha1>-<w>x<h>.<ext>`.
    if (file) images.set(asset._id.replace(/^(image|file)-/, '').replace(/-([a-z0-9]+)$/, '.$1'), file)
  }
  return { documents, images, assets }
}

/**
 * Writes the documents (drafts and preview secrets included: the site shows drafts only in preview) in the file's
 * form. Renamed into place, so the site, which re-reads the file when it changes, never reads half of it.
 */
export function writeLakeDataset(datasetPath: string, documents: SanityDocument[], assets: Map<string, AssetFile>): void {
  const lines = documents
    .filter((document) => !ASSET_TYPES.has(document._type))
    // `_id` and `_type` first, as in the shipped file, so a line is found and read as easily.
    .map(({ _id, _type, ...fields }) => JSON.stringify(rewriteAssetReferences({ _id, _type, ...fields }, assets, _id)))
  const partialPath = `${datasetPath}.partial`
  writeFileSync(partialPath, lines.join('\n') + '\n')
  renameSync(partialPath, datasetPath)
}

/**
 * The folder the local studio edits: a copy of the shipped dataset (its file and images), made once, so editing never
 * changes the generated, committed dataset. Deleting the folder starts again from the shipped content.
 */
export function ensureWorkingCopy(shippedDatasetDir: string, workingDir: string): string {
  const datasetPath = path.join(workingDir, 'production.ndjson')
  if (!existsSync(datasetPath)) {
    cpSync(shippedDatasetDir, workingDir, {
      recursive: true,
      filter: (source) => source === shippedDatasetDir || /production\.ndjson$|[/\\]images([/\\]|$)/.test(source),
    })
  }
  return datasetPath
}
