// `sanity migration run 2026-11-28-sponsor-package-benefit-fields` (from studio/): a sponsor package's benefits were
// lines of text ("3 complimentary seats", "50% discount for your participants", ...), which the back office could not
// read to give a sponsorship deal its codes. Each line the fields can hold becomes its field (complimentary seats,
// participant discount, words of promotional text, pages of literature, the speaking slot); lines they cannot hold stay
// as other benefits. The patch is guarded by the document's revision, so an edit made meanwhile is never overwritten,
// and a package with any of the fields set is left alone, so the migration can run again. The site lists the same
// lines before and after (sponsorBenefitLines).
import { benefitFieldsOfLines } from '@events/content'
import { at, defineMigration, patch, set, unset, type NodePatch } from 'sanity/migrate'

type SponsorPackage = Record<string, unknown> & { _id: string; _rev?: string; benefits?: unknown }

const FIELDS = ['complimentarySeats', 'participantDiscountPercent', 'promotionalTextWords', 'literaturePages', 'speakingSlot'] as const

export default defineMigration({
  title: 'Sponsor package benefits as fields',
  documentTypes: ['sponsorPackage'],
  migrate: {
    document(document) {
      const sponsorPackage = document as SponsorPackage
      if (FIELDS.some((field) => sponsorPackage[field] !== undefined && sponsorPackage[field] !== null)) return undefined
      const lines = Array.isArray(sponsorPackage.benefits) ? sponsorPackage.benefits.filter((line): line is string => typeof line === 'string') : []
      if (lines.length === 0) return undefined
      const fields = benefitFieldsOfLines(lines)
      const patches: NodePatch[] = FIELDS.flatMap((field) => (fields[field] === null ? [] : [at(field, set(fields[field]))]))
      patches.push(fields.benefits.length === 0 ? at('benefits', unset()) : at('benefits', set(fields.benefits)))
      return patch(sponsorPackage._id, patches, sponsorPackage._rev === undefined ? undefined : { ifRevision: sponsorPackage._rev })
    },
  },
})
