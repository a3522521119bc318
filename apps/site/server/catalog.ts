import type { EventCatalog, RegistrationEvent, SiteSettingsForMail, SponsorPackageTerms } from '@events/core'
import {
  fetchWholeContent,
  redirectsOf,
  redirectsQuery,
  registrationEventQuery,
  renamedEventSlug,
  siteSettingsQuery,
  sponsorPackagesQuery,
  type RedirectsQueryResult,
  type RegistrationEventQueryResult,
  type SiteSettingsQueryResult,
  type SponsorPackagesQueryResult,
} from '@events/content'
import { DEFAULT_VAT_RATE } from '@events/pricing'
import type { SanityClient } from '@sanity/client'

// Every registration reads its event and the settings; a few seconds of reuse spares the content source a
// round trip per submission under load, while an edit in the Studio still shows within moments.
const CACHE_MS = 5_000
const MAX_ENTRIES = 1_000

interface CacheEntry<T> {
  value: Promise<T>
  expiresAt: number
}

function shortLivedCache<T>(load: (key: string) => Promise<T>, now: () => number = Date.now) {
  const entries = new Map<string, CacheEntry<T>>()
  const read = (key: string): Promise<T> => {
    const cached = entries.get(key)
    if (cached && cached.expiresAt > now()) return cached.value
    // Unknown slugs are cached too; forgetting everything now and then keeps junk keys from piling up.
    if (entries.size >= MAX_ENTRIES) entries.clear()
    const value = load(key)
    entries.set(key, { value, expiresAt: now() + CACHE_MS })
    // A failed read is not kept: the next submission asks again.
    value.catch(() => entries.delete(key))
    return value
  }
  return Object.assign(read, { forget: () => entries.clear() })
}

/** Maps the site settings content onto what the e-mails print; missing values read as empty. */
export function settingsForMail(settings: SiteSettingsQueryResult): SiteSettingsForMail {
  const bank = settings?.bankDetails
  return {
    siteName: settings?.siteName ?? '',
    vatRate: settings?.vatRate ?? DEFAULT_VAT_RATE,
    bankDetails: {
      bankName: bank?.bankName ?? '',
      accountName: bank?.accountName ?? '',
      accountNumber: bank?.accountNumber ?? '',
      branch: bank?.branch ?? '',
      branchCode: bank?.branchCode ?? '',
      swiftCode: bank?.swiftCode ?? '',
    },
    paymentTermsDays: settings?.paymentTermsDays ?? 5,
    sponsorCodesOncePaid: settings?.sponsorCodesOncePaid ?? false,
    addresses: settings?.addresses ?? [],
    phones: settings?.phones ?? [],
    email: settings?.email ?? '',
    vatNumber: settings?.vatNumber ?? '',
    informationOfficer: settings?.informationOfficer?.email ? { name: settings.informationOfficer.name ?? '', email: settings.informationOfficer.email } : null,
    certificateSignatory: settings?.certificateSignatory?.name
      ? {
          name: settings.certificateSignatory.name,
          title: settings.certificateSignatory.title ?? '',
          signatureUrl: settings.certificateSignatory.signatureUrl ?? null,
        }
      : null,
  }
}

/** Maps an event's content onto the registration facts the core checks and stores. */
export function registrationEvent(event: NonNullable<RegistrationEventQueryResult>, siteUrl: string): RegistrationEvent {
  // The studio requires a venue, but a dataset copy or a partial import can lack one: the event still takes
  // registrations (the missing venue is logged where the content is read, whole-content.ts).
  const venue = event.venue as typeof event.venue | null
  return {
    // A preview client may answer with the draft's id; registrations keep the published one.
    id: event._id.replace(/^drafts\./, ''),
    slug: event.slug,
    kind: event.kind,
    title: event.title,
    code: event.code,
    start: event.start,
    end: event.end,
    registrationClosesAt: event.registrationClosesAt,
    registrationSubject: event.registrationSubject,
    venue: { name: venue?.name ?? '', address: venue?.address ?? null },
    contactEmail: event.contactEmail,
    contactPhone: event.contactPhone,
    url: `${siteUrl}/${event.kind}/${event.slug}`,
    venueCapacity: event.venueCapacity,
    onlineCapacity: event.onlineCapacity,
    priceOptions: (event.priceOptions ?? []).map((option) => ({
      key: option.key,
      label: option.label,
      amount: option.amount,
      earlyBirdUntil: option.earlyBirdUntil,
    })),
    agendaDays: (event.agendaDays ?? []).flatMap((day) =>
      day.date
        ? [
            {
              date: day.date,
              sessions: (day.sessions ?? []).map((session) => ({
                start: session.start,
                end: session.end,
                isBreak: session.isBreak === true,
                isEthics: session.isEthics,
              })),
            },
          ]
        : [],
    ),
    cpd:
      event.cpd?.accreditingBody && event.cpd.accreditationNumber
        ? { accreditingBody: event.cpd.accreditingBody, accreditationNumber: event.cpd.accreditationNumber, category: event.cpd.category ?? null }
        : null,
    certificatesOnlyWhenPaid: event.certificatesOnlyWhenPaid,
  }
}

/** A sponsor package's terms as a deal takes them; a benefit left empty in the Studio gives nothing. */
export function sponsorPackageTerms(sponsorPackage: SponsorPackagesQueryResult[number]): SponsorPackageTerms {
  return {
    id: sponsorPackage._id.replace(/^drafts\./, ''),
    title: sponsorPackage.title ?? '',
    complimentarySeats: sponsorPackage.complimentarySeats ?? 0,
    participantDiscountPercent: sponsorPackage.participantDiscountPercent ?? 0,
    promotionalTextWords: sponsorPackage.promotionalTextWords ?? 0,
    literaturePages: sponsorPackage.literaturePages ?? 0,
    speakingSlot: sponsorPackage.speakingSlot ?? '',
    priceExclVat: sponsorPackage.priceExclVat ?? null,
  }
}

/**
 * The core's view of the content: events by route slug (a renamed event's old slug too) and the site settings, read
 * through the site's Sanity client.
 * forget() drops the reads it keeps, when the content changed.
 */
export function createContentCatalog(content: SanityClient, siteUrl: string): EventCatalog & { forget(): void } {
  const eventBySlug = (slug: string) => fetchWholeContent<RegistrationEventQueryResult>(content, registrationEventQuery, { slug })
  // A slug no event has may be one a renamed event had: its redirect documents lead to the event's page now.
  const renamedEvent = async (slug: string) => {
    const redirects = await content.fetch<RedirectsQueryResult>(redirectsQuery)
    const current = renamedEventSlug(redirectsOf(redirects), slug)
    return current === undefined ? null : eventBySlug(current)
  }
  const events = shortLivedCache(async (slug) => {
    const event = (await eventBySlug(slug)) ?? (await renamedEvent(slug))
    return event ? registrationEvent(event, siteUrl) : undefined
  })
  const settings = shortLivedCache(async () => settingsForMail(await fetchWholeContent<SiteSettingsQueryResult>(content, siteSettingsQuery)))
  const sponsorPackages = shortLivedCache(async () => fetchWholeContent<SponsorPackagesQueryResult>(content, sponsorPackagesQuery))
  return {
    getEvent: (slug) => events(slug),
    getSettings: () => settings('settings'),
    async getSponsorPackage(id) {
      const found = (await sponsorPackages('packages')).find((sponsorPackage) => sponsorPackage._id === id)
      return found && sponsorPackageTerms(found)
    },
    forget() {
      events.forget()
      settings.forget()
      sponsorPackages.forget()
    },
  }
}
