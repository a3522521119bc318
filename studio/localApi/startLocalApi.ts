// Sanity's API on this computer, for a studio without a Sanity project: the stand-in holds the dataset file's
// documents and writes them back after every change, so the site, which re-reads that file, shows what is published
// (and, in the Presentation tool's preview, the drafts) a moment later.
import { startContentLake, type ContentLake } from './contentLake.ts'
import { readLakeDataset, writeLakeDataset } from './datasetFile.ts'

/** The project id the studio uses with the local stand-in; the studio shows it as "local". */
export const LOCAL_PROJECT_ID = 'local'

export async function startLocalContentApi({ datasetPath, port = 0 }: { datasetPath: string; port?: number }): Promise<ContentLake> {
  const { documents, images, assets } = await readLakeDataset(datasetPath)
  return startContentLake({
    documents,
    images,
    projectId: LOCAL_PROJECT_ID,
    port,
    onCommit: (stored) => writeLakeDataset(datasetPath, stored, assets),
  })
}
