// Small builders for the shapes `sanity dataset import` expects, so the content files read like content.

/** A document as written to the NDJSON file. */
export interface DatasetDocument {
  _id: string
  _type: string
  placeholders?: string[]
  [field: string]: unknown
}

/** An image the generator draws, referenced from documents by file name. */
export interface PlaceholderImage {
  file: string
  svg: string
}

/** A reference to another document; `key` is needed when the reference sits in an array. */
export function ref(id: string, key?: string): Record<string, string> {
  return key === undefined ? { _type: 'reference', _ref: id } : { _key: key, _type: 'reference', _ref: id }
}

/** References in an array, keyed by the referenced id (stable and unique within the array). */
export function refs(ids: readonly string[]): Record<string, string>[] {
  return ids.map((id) => ref(id, id))
}

/** An image field in the import format: the asset is uploaded from `images/<file>` next to the NDJSON file. */
export function image(file: string, alt: string, key?: string): Record<string, string> {
  return {
    ...(key === undefined ? {} : { _key: key }),
    _type: 'image',
    _sanityAsset: `image@file://./images/${file}`,
    alt,
  }
}

/** Objects in an array get a `_key`, derived here from their position so the output is stable. */
export function keyed<T extends object>(prefix: string, items: readonly T[]): (T & { _key: string })[] {
  return items.map((item, index) => ({ _key: `${prefix}-${String(index + 1).padStart(2, '0')}`, ...item }))
}
