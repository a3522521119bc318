/** A sponsor package's benefits as its fields hold them (a package stored before the fields existed has only `benefits`). */
export interface SponsorPackageBenefits {
  complimentarySeats?: number | null
  participantDiscountPercent?: number | null
  promotionalTextWords?: number | null
  literaturePages?: number | null
  speakingSlot?: string | null
  /** Anything else the package gives, one line each. */
  benefits?: readonly string[] | null
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/**
 * The benefit lines the Sponsor tab lists, in the specification's words: "3 complimentary seats", "50% discount for
 * your participants", "100 words of promotional text", "10 pages of literature", the speaking slot, then the rest.
 * A benefit the package does not give (no seats, no discount) is left out.
 */
export function sponsorBenefitLines(sponsorPackage: SponsorPackageBenefits): string[] {
  const { complimentarySeats: seats, participantDiscountPercent: percent, promotionalTextWords: words, literaturePages: pages } = sponsorPackage
  return [
    seats ? plural(seats, 'complimentary seat', 'complimentary seats') : '',
    percent ? `${percent}% discount for your participants` : '',
    words ? plural(words, 'word of promotional text', 'words of promotional text') : '',
    pages ? plural(pages, 'page of literature', 'pages of literature') : '',
    sponsorPackage.speakingSlot?.trim() ?? '',
    ...(sponsorPackage.benefits ?? []),
  ].filter((line) => line !== '')
}

/** A package's benefit fields, each null where no line said it, and the lines no field holds. */
export interface BenefitFields {
  complimentarySeats: number | null
  participantDiscountPercent: number | null
  promotionalTextWords: number | null
  literaturePages: number | null
  speakingSlot: string | null
  benefits: string[]
}

/** The benefits read from the lines packages held before they had fields: what each line says, the rest left as lines. */
export function benefitFieldsOfLines(lines: readonly string[]): BenefitFields {
  const fields: BenefitFields = {
    complimentarySeats: null,
    participantDiscountPercent: null,
    promotionalTextWords: null,
    literaturePages: null,
    speakingSlot: null,
    benefits: [],
  }
  for (const line of lines) {
    const text = line.trim()
    let match: RegExpExecArray | null
    if (fields.complimentarySeats === null && (match = /^(\d+) complimentary seats?$/i.exec(text))) fields.complimentarySeats = Number(match[1])
    else if (
      fields.participantDiscountPercent === null &&
      (match = /^(\d{1,3})% discount for (?:your|the sponsor's) participants$/i.exec(text)) &&
      Number(match[1]) <= 100
    ) {
      fields.participantDiscountPercent = Number(match[1])
    } else if (fields.promotionalTextWords === null && (match = /^(\d+) words? of promotional text$/i.exec(text)))
      fields.promotionalTextWords = Number(match[1])
    else if (fields.literaturePages === null && (match = /^(\d+) pages? of literature$/i.exec(text))) fields.literaturePages = Number(match[1])
    else if (fields.speakingSlot === null && /case study|workshop|talk|keynote|presentation|speaking|slot|panel/i.test(text)) fields.speakingSlot = text
    else if (text !== '') fields.benefits.push(text)
  }
  return fields
}
