// Sanity's API on this computer, for a studio without a Sanity project: the stand-in holds the dataset file's
// documents and writes them back after every change, so the site, which re-reads that file, shows what is published
// (and, in the Presentation tool's preview, the drafts) a moment later.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { selfSignedCertificate, startContentLake, type ContentLake } from './contentLake.ts'
import { readLakeDataset, writeLakeDataset } from './datasetFile.ts'

/** The project id the studio uses with the local stand-in; the studio shows it as "local". */
export const LOCAL_PROJECT_ID = 'local'

/**
 * The stand-in's certificate, kept in `tls/` beside the dataset file: a browser that accepted it once keeps trusting
 * the stand-in across restarts of `pnpm dev`, which a new certificate each start would undo.
 */
function keptCertificate(datasetPath: string): { key: Buffer; cert: Buffer } {
  const dir = path.join(path.dirname(datasetPath), 'tls')
  const keyPath = path.join(dir, 'key.pem')
  const certPath = path.join(dir, 'cert.pem')
  if (existsSync(keyPath) && existsSync(certPath)) return { key: readFileSync(keyPath), cert: readFileSync(certPath) }
  const made = selfSignedCertificate(LOCAL_PROJECT_ID, 365)
  mkdirSync(dir, { recursive: true })
  writeFileSync(keyPath, made.key, { mode: 0o600 })
  writeFileSync(certPath, made.cert)
  return made
}

export async function startLocalContentApi({ datasetPath, port = 0 }: { datasetPath: string; port?: number }): Promise<ContentLake> {
  const { documents, images, assets } = await readLakeDataset(datasetPath)
  return startContentLake({
    documents,
    images,
    projectId: LOCAL_PROJECT_ID,
    port,
    tls: keptCertificate(datasetPath),
    onCommit: (stored) => writeLakeDataset(datasetPath, stored, assets),
  })
}
