import { defineQuery } from 'groq'

// Images are projected the same way everywhere so the site can always set width and height; the server turns each
// into its URLs (withImageSources) from the asset, the editor's crop and hotspot, and the shape the site shows it in.
// The fragments are spelled out in each query because Sanity TypeGen only reads literal query strings.
// An event holds its price options and agenda sessions; each is read through `coalesce(@->, @)` so that an event
// still referencing them as documents of their own (a project part-way through the migration in
// studio/migrations/event-holds-its-parts) shows and registers the same until it is moved.

/**
 * Site-wide settings: company details, contacts, social links, bank details, VAT rate. Editors enter the rate as a
 * percentage (15); the site reads the fraction (0.15). A rate below 1 is one stored as a fraction before
 * studio/migrations/2026-11-27-vat-rate-percentage ran, read as it is, so the site charges the same VAT throughout.
 */
export const siteSettingsQuery = defineQuery(`*[_type == "siteSettings" && _id == "siteSettings"][0]{
  siteName,
  tagline,
  footerDescription,
  developerCredit,
  registrationNumbers[]{ _key, label, value },
  addresses,
  phones,
  email,
  socialLinks{ facebook, x, instagram, linkedin },
  vatNumber,
  "vatRate": select(vatRate < 1 => vatRate, vatRate / 100),
  bankDetails{ bankName, accountName, accountNumber, branch, branchCode, swiftCode },
  paymentTermsDays,
  sponsorCodesOncePaid,
  informationOfficer{ name, email },
  certificateSignatory{ name, title, "signatureUrl": signature.asset->url }
}`)

/** A content page by its slug (home, mission, vision, values, terms, sponsorship, training pages, privacy). */
export const pageQuery = defineQuery(`*[_type == "page" && slug.current == $slug][0]{
  _id,
  "slug": slug.current,
  title,
  subtitle,
  seoDescription,
  heroImage{ alt, "url": asset->url, "width": asset->metadata.dimensions.width, "height": asset->metadata.dimensions.height, "assetRef": asset._ref, crop, hotspot },
  intro,
  sections[]{ _key, heading, body },
  cards[]{ _key, title, text, href },
  statistics[]{ _key, value, label },
  contactTitle,
  contactSubtitle
}`)

/** The divisions grid of the home page, in display order. */
export const divisionsQuery = defineQuery(`*[_type == "division"] | order(order asc){
  _id,
  title,
  description,
  href
}`)

/** The cards of a listing page (conferences or workshops) that the events team marked as listed. */
export const eventCardsQuery =
  defineQuery(`*[_type == "event" && kind == $kind && card.listed == true] | order(coalesce(card.position, 1000000) asc, start asc){
  _id,
  title,
  kind,
  "slug": slug.current,
  start,
  end,
  venueCapacity,
  onlineCapacity,
  registrationClosesAt,
  "priceOptions": priceOptions[]{ ...coalesce(@->, @){ key, amount, earlyBirdUntil } },
  venue{ name, address },
  "image": card.image{ alt, "url": asset->url, "width": asset->metadata.dimensions.width, "height": asset->metadata.dimensions.height, "assetRef": asset._ref, crop, hotspot, "aspectRatio": 16.0 / 9.0 }
}`)

/** Listed events that have not started yet, soonest first, with what their cards and "from" prices need (the home page). */
export const upcomingEventsQuery = defineQuery(`*[_type == "event" && card.listed == true && dateTime(start) > dateTime($now)] | order(start asc){
  _id,
  title,
  kind,
  "slug": slug.current,
  start,
  end,
  registrationClosesAt,
  venueCapacity,
  onlineCapacity,
  venue{ name, address },
  "priceOptions": priceOptions[]{ ...coalesce(@->, @){ key, amount, earlyBirdUntil } }
}`)

/** Everything an event page shows: its agenda and prices (held in the event), its speakers and sponsor packages resolved. */
export const eventPageQuery = defineQuery(`*[_type == "event" && kind == $kind && slug.current == $slug][0]{
  _id,
  kind,
  title,
  "cpdAccredited": defined(cpd.accreditingBody) && defined(cpd.accreditationNumber),
  "slug": slug.current,
  code,
  summary,
  start,
  end,
  format,
  venue{ name, address },
  contactPhone,
  contactEmail,
  registrationSubject,
  registrationClosesAt,
  venueCapacity,
  onlineCapacity,
  tabs,
  "card": card{
    "image": image{ alt, "url": asset->url, "width": asset->metadata.dimensions.width, "height": asset->metadata.dimensions.height, "assetRef": asset._ref, crop, hotspot, "aspectRatio": 16.0 / 9.0 }
  },
  overview{ theme, keyMessages, objectives },
  agendaDays[]{
    _key,
    label,
    date,
    "sessions": sessions[]{
      _key,
      ...coalesce(@->, @){
        "time": start + " – " + end,
        title,
        room,
        "speaker": select(count(speakers) > 0 => array::join(speakers[]->{ "line": coalesce(name + ", " + position, name) }.line, "; "), speaker),
        isBreak,
        isEthics
      }
    }
  },
  "speakers": speakers[]->{
    _id,
    name,
    position,
    company,
    bio,
    "image": image{ alt, "url": asset->url, "width": asset->metadata.dimensions.width, "height": asset->metadata.dimensions.height, "assetRef": asset._ref, crop, hotspot, "aspectRatio": 1 }
  },
  "participatingCompanies": participatingCompanies[]{
    _key,
    alt,
    "url": asset->url,
    "width": asset->metadata.dimensions.width,
    "height": asset->metadata.dimensions.height,
    "assetRef": asset._ref,
    crop,
    hotspot
  },
  "priceOptions": priceOptions[]{ _key, ...coalesce(@->, @){ key, label, amount, earlyBirdUntil } },
  "sponsorPackages": sponsorPackages[]->{ _id, title, rank, complimentarySeats, participantDiscountPercent, promotionalTextWords, literaturePages, speakingSlot, benefits },
  sponsorHeading,
  sponsorIntro
}`)

/** The registration-relevant facts of an event, looked up by its route slug alone (the API names events by slug). */
export const registrationEventQuery = defineQuery(`*[_type == "event" && slug.current == $slug][0]{
  _id,
  kind,
  title,
  "slug": slug.current,
  code,
  start,
  end,
  registrationClosesAt,
  registrationSubject,
  venueCapacity,
  onlineCapacity,
  venue{ name, address },
  contactEmail,
  contactPhone,
  "priceOptions": priceOptions[]{ ...coalesce(@->, @){ key, label, amount, earlyBirdUntil } },
  "agendaDays": agendaDays[]{ date, "sessions": sessions[]{ ...coalesce(@->, @){ start, end, isBreak, "isEthics": coalesce(isEthics, false) } } },
  cpd{ accreditingBody, accreditationNumber, category },
  "certificatesOnlyWhenPaid": coalesce(certificatesOnlyWhenPaid, true)
}`)

/**
 * Every event's moments at which availability changes (start, closing, early-bird dates) and its seat limits, for the
 * page cache: a page changes when a moment passes or an event's seats cross what visitors are told.
 */
export const availabilityScheduleQuery = defineQuery(`*[_type == "event"]{
  _id,
  start,
  registrationClosesAt,
  venueCapacity,
  onlineCapacity,
  "options": priceOptions[]{ ...coalesce(@->, @){ key, earlyBirdUntil } }
}`)

/** Slugs and kinds of all events, for the sitemap and the contact sub-routes. */
export const eventSlugsQuery = defineQuery(`*[_type == "event"] | order(start asc){
  title,
  kind,
  "slug": slug.current,
  _updatedAt
}`)

/** All sponsor packages, best tier first (the sponsorship page). */
export const sponsorPackagesQuery = defineQuery(`*[_type == "sponsorPackage"] | order(rank asc){
  _id,
  title,
  rank,
  complimentarySeats,
  participantDiscountPercent,
  promotionalTextWords,
  literaturePages,
  speakingSlot,
  priceExclVat,
  benefits
}`)

/** The editors' redirects (an event's old slug among them), for paths the site would otherwise answer 404. */
export const redirectsQuery = defineQuery(`*[_type == "redirect" && defined(from) && defined(to)]{ from, to }`)

/** The picture of an event (its card image) or a page (its hero image) that link previews show. */
export const socialImageQuery = defineQuery(`*[_id == $id][0]{
  "image": coalesce(card.image, heroImage){ "url": asset->url, "width": asset->metadata.dimensions.width, "height": asset->metadata.dimensions.height, "assetRef": asset._ref, crop, hotspot }
}`)
