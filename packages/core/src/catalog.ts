import type { OptionKey } from '@events/pricing'

/** One attendance option of an event, as authored in the content (amount in rand, excl. VAT). */
export interface RegistrationPriceOption {
  key: OptionKey
  label: string
  amount: number
  earlyBirdUntil?: string | null
}

/** What the registration service needs to know about an event; the site maps its content onto it. */
export interface RegistrationEvent {
  /** The event's content document id (the published one, without `drafts.`): it stays when the slug is renamed. */
  id: string
  slug: string
  kind: 'conference' | 'workshop'
  title: string
  code: string
  /** ISO datetimes. */
  start: string
  end: string
  registrationClosesAt?: string | null
  registrationSubject: string
  venue: { name: string; address?: string | null }
  contactEmail: string
  contactPhone: string
  /** Absolute URL of the event page. */
  url: string
  priceOptions: RegistrationPriceOption[]
  /** Seats in the room (venue, early-bird and table delegates); null for no limit. */
  venueCapacity?: number | null
  /** Places for online delegates; null for no limit. */
  onlineCapacity?: number | null
  /** The agenda's days (YYYY-MM-DD) and their sessions' times (HH:mm, Johannesburg); breaks and registration marked. */
  agendaDays?: AgendaDay[]
  /** The CPD body's accreditation of the event; absent when no body accredits it. */
  cpd?: CpdAccreditation | null
  /** Certificates wait for a registration to be paid in full (the default). */
  certificatesOnlyWhenPaid?: boolean
}

/** Who accredits an event for CPD, under which number, and in which category. */
interface CpdAccreditation {
  accreditingBody: string
  accreditationNumber: string
  category?: string | null
}

/** One day of an event's agenda, as the certificates count its hours. */
export interface AgendaDay {
  date: string
  sessions: Array<{ start: string; end: string; isBreak: boolean; isEthics?: boolean }>
}

/** The person who signs the certificates, and their signature's image address. */
interface CertificateSignatory {
  name: string
  title: string
  signatureUrl?: string | null
}

export interface BankDetails {
  bankName: string
  accountName: string
  accountNumber: string
  branch: string
  branchCode: string
  swiftCode: string
}

/** The bank details as labelled rows, ending with the reference the payer quotes: one wording for e-mails and invoices. */
export function bankDetailRows(bank: BankDetails, reference: string): Array<[label: string, value: string]> {
  return [
    ['Bank', bank.bankName],
    ['Account name', bank.accountName],
    ['Account number', bank.accountNumber],
    ['Branch', bank.branch],
    ['Branch code', bank.branchCode],
    ['SWIFT code', bank.swiftCode],
    ['Payment reference', reference],
  ]
}

/** The company details the e-mails print. */
export interface SiteSettingsForMail {
  siteName: string
  vatRate: number
  bankDetails: BankDetails
  paymentTermsDays: number
  /** Whether a new sponsorship deal's codes wait for its invoice to be paid in full (the deal form starts from it). */
  sponsorCodesOncePaid?: boolean
  addresses: string[]
  phones: string[]
  email: string
  vatNumber: string
  informationOfficer?: { name: string; email: string } | null
  certificateSignatory?: CertificateSignatory | null
}

/** The content the core reads, implemented by the site over its content source. */
export interface EventCatalog {
  /**
   * The event a route slug names now: the event whose slug it is or, when an event was renamed, the event its old
   * slug's redirect documents lead to (so a form loaded before the rename still registers for it).
   */
  getEvent(slug: string): Promise<RegistrationEvent | undefined>
  getSettings(): Promise<SiteSettingsForMail>
  /** A sponsor package's terms by its content id; absent where the catalog knows none (sponsorship deals need it). */
  getSponsorPackage?(id: string): Promise<SponsorPackageTerms | undefined>
}

/** A sponsor package's benefits and list price, as the content holds them. */
export interface SponsorPackageTerms {
  id: string
  title: string
  complimentarySeats: number
  participantDiscountPercent: number
  promotionalTextWords: number
  literaturePages: number
  speakingSlot: string
  /** Excl. VAT, in rand; null when the package has no list price. */
  priceExclVat: number | null
}
