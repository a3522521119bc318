import { pfas, PARTNER_COMPANIES, resilience } from './source/conferences.ts'
import { eventDocuments, logoImages } from './source/eventModel.ts'
import type { DatasetDocument, PlaceholderImage } from './source/model.ts'
import { pageImages, pages } from './source/pages.ts'
import { divisions, siteSettings } from './source/settings.ts'
import { speakerImages, speakers } from './source/speakers.ts'
import { sponsorPackages } from './source/sponsors.ts'
import { boardManagement, legalOpinion, legalSecretary, officeProfessionals } from './source/workshops.ts'

export type { DatasetDocument, PlaceholderImage }

/** The shipped dataset: every document in import order, and the images they reference. */
export interface Dataset {
  documents: DatasetDocument[]
  images: PlaceholderImage[]
}

/** File name of the dataset next to this module; the images sit in `images/` beside it. */
export const DATASET_FILE = 'production.ndjson'

/** Builds the 2025 programme from the content files in `source/`. */
export function buildDataset(): Dataset {
  const events = [resilience, pfas, legalOpinion, legalSecretary, officeProfessionals, boardManagement].map(eventDocuments)
  return {
    documents: [
      siteSettings,
      ...divisions,
      ...pages,
      ...sponsorPackages,
      ...speakers,
      ...events.flatMap((event) => event.documents),
    ],
    images: [...events.flatMap((event) => event.images), ...speakerImages, ...logoImages(PARTNER_COMPANIES), ...pageImages],
  }
}

/** The NDJSON text `sanity dataset import` reads: one document per line. */
export function toNdjson(documents: readonly DatasetDocument[]): string {
  return documents.map((document) => JSON.stringify(document)).join('\n') + '\n'
}
