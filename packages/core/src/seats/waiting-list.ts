import { isRegistrationOpen } from '@events/pricing'
import type { Kysely, Transaction } from 'kysely'
import * as z from 'zod/mini'
import type { RegistrationEvent, SiteSettingsForMail } from '../catalog.ts'
import { staffCommand, type AuditedChange, type StaffActor } from '../backoffice/command.ts'
import { businessClock, wallClock, type BackOfficeContext } from '../backoffice/context.ts'
import { BackOfficeError } from '../backoffice/errors.ts'
import type { Database } from '../db/database.ts'
import type { WaitingListEntriesTable, WaitingListState } from '../db/tables/waiting-list.ts'
import { ValidationError } from '../errors.ts'
import { newId, sha256Hex } from '../ids.ts'
import { waitingListOfferExpiredMail, waitingListOfferMail, waitingListPlaceMail, type WaitingListMailContext } from '../mail/waiting-list-mails.ts'
import { enqueueMails } from '../outbox/enqueue.ts'
import { startRecurringRound } from '../recurring-round.ts'
import { generateSecret } from '../registration/reference.ts'
import { isHoneypotFilled } from '../enquiries/service.ts'
import { parseSubmission } from '../submissions/parse.ts'
import { readEventSlug } from '../submissions/registration.ts'
import { ownFields, requiredEmail, requiredLine, requiredPhone } from '../submissions/fields.ts'
import { isRecord, singleLine } from '../validation/fields.ts'
import { lockEventSeats, seatKindOf, seatsLeftAt, type SeatKind, type SeatCounts } from './seats.ts'

/** How long an offer holds its seats when WAITING_LIST_OFFER_HOURS is not set. */
export const DEFAULT_WAITING_LIST_OFFER_HOURS = 48

/** The most seats one entry may ask for. */
export const MAX_WAITING_LIST_SEATS = 10

/** The query parameter of the event page that carries an offer's private token (its Register tab then holds the seats). */
export const WAITING_LIST_OFFER_PARAM = 'offer'

/** How often the site looks for lapsed offers and freed seats to offer, besides right after a cancellation. */
const WAITING_LIST_SWEEP_INTERVAL_MS = 60_000

export type { WaitingListState }

/** What the waiting list needs: the back office's context (database, catalog, clocks, how long offers last). */
export interface WaitingListContext extends BackOfficeContext {
  /** Told after the commit when e-mail was queued, so the outbox sends it now. */
  onMailQueued?: (() => void) | undefined
}

type EntryRow = WaitingListEntriesTable

const LIMITS = { name: 200, companyName: 200, tel: 40 } as const

/** A number of seats as a form or JSON sends it: a whole number from 1 to MAX_WAITING_LIST_SEATS. */
const seatCount = z.pipe(
  z.transform((value: unknown) => (typeof value === 'number' ? String(value) : singleLine(value))),
  z.pipe(
    z.string().check(z.minLength(1, 'required')),
    z.pipe(
      z.transform((text: string) => (/^\d{1,3}$/.test(text) ? Number(text) : Number.NaN)),
      z.number('invalid-seats').check(z.int('invalid-seats'), z.minimum(1, 'invalid-seats'), z.maximum(MAX_WAITING_LIST_SEATS, 'invalid-seats')),
    ),
  ),
)

/** What a visitor leaves to join the waiting list (the event is read first, by readEventSlug). */
export const waitingListSchema = z.pipe(
  ownFields,
  z.object({
    name: requiredLine(LIMITS.name),
    companyName: requiredLine(LIMITS.companyName),
    email: requiredEmail,
    tel: requiredPhone(LIMITS.tel),
    seats: seatCount,
    attendance: z.pipe(z.transform(singleLine), z.pipe(z.string().check(z.minLength(1, 'required')), z.enum(['venue', 'online'], 'invalid-choice'))),
  }),
)

/** A place on the waiting list, as the visitor is told it. */
export interface WaitingListPlace {
  id: string
  position: number
}

function offerHoursOf(context: WaitingListContext): number {
  return context.waitingListOfferHours ?? DEFAULT_WAITING_LIST_OFFER_HOURS
}

/** The private link of an offer: the event's Register tab with the offer's token. */
function offerUrlOf(event: Pick<RegistrationEvent, 'url'>, token: string): string {
  return `${event.url}?tab=register&${WAITING_LIST_OFFER_PARAM}=${encodeURIComponent(token)}`
}

function mailContextOf(entry: EntryRow, event: Pick<RegistrationEvent, 'start' | 'end'>, settings: SiteSettingsForMail): WaitingListMailContext {
  return {
    name: entry.name,
    email: entry.email,
    eventTitle: entry.event_title,
    eventStart: event.start,
    eventEnd: event.end,
    position: entry.position,
    seats: entry.seats,
    attendance: entry.attendance,
    settings,
  }
}

/** Keeps one change of an entry, with who made it (null: the site itself) and what it changed. */
async function recordChange(
  transaction: Transaction<Database>,
  entryId: string,
  action: string,
  at: Date,
  actor: StaffActor | null,
  details: unknown,
): Promise<void> {
  await transaction
    .insertInto('waiting_list_changes')
    .values({ id: newId(), entry_id: entryId, action, actor_name: actor?.name ?? null, details_json: JSON.stringify(details ?? {}), at: at.toISOString() })
    .execute()
}

/** The seat kinds an event offers, from its attendance options. */
function offeredKinds(event: RegistrationEvent): Set<SeatKind> {
  return new Set(event.priceOptions.map((option) => seatKindOf(option.key)))
}

/**
 * Adds a visitor to the waiting list of a sold-out event, with the e-mail confirming their place, in one transaction.
 * Refused with `not-sold-out` while the seats they want are still free (they register instead), and like a
 * registration when the event is unknown, closed or does not offer that attendance.
 */
export async function joinWaitingList(context: WaitingListContext, input: unknown): Promise<WaitingListPlace> {
  if (!isRecord(input)) throw new ValidationError('invalid-request')
  // A robot is told it succeeded, so it has no reason to try again; nothing is stored or sent.
  if (isHoneypotFilled(input)) return { id: newId(), position: 1 }
  const slug = readEventSlug(input)
  const event = await context.catalog.getEvent(slug)
  if (!event) throw new ValidationError('unknown-event', [{ path: 'event', code: 'unknown-event' }])
  if (!isRegistrationOpen(event, businessClock(context))) throw new ValidationError('registration-closed')
  const fields = parseSubmission(waitingListSchema, input)
  if (!offeredKinds(event).has(fields.attendance)) throw new ValidationError('option-not-offered', [{ path: 'attendance', code: 'option-not-offered' }])
  const settings = await context.catalog.getSettings()
  const at = wallClock(context)
  const id = newId()
  const place = await context.db.writeTransaction(async (transaction) => {
    await lockEventSeats(transaction, event.id, at)
    const free = (await seatsLeftAt(transaction, event))[fields.attendance]
    if (free === null || free >= fields.seats) {
      throw new ValidationError('not-sold-out', [
        { path: 'attendance', code: 'not-sold-out', seatKind: fields.attendance, seatsWanted: fields.seats, ...(free === null ? {} : { seatsLeft: free }) },
      ])
    }
    const last = await transaction
      .selectFrom('waiting_list_entries')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('event_id', '=', event.id)
      .executeTakeFirst()
    const entry: EntryRow = {
      id,
      event_id: event.id,
      event_slug: event.slug,
      event_title: event.title,
      position: Number(last?.position ?? 0) + 1,
      name: fields.name,
      company_name: fields.companyName,
      email: fields.email,
      tel: fields.tel,
      seats: fields.seats,
      attendance: fields.attendance,
      state: 'waiting',
      offer_token_hash: null,
      offered_until: null,
      registration_id: null,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    }
    await transaction.insertInto('waiting_list_entries').values(entry).execute()
    await recordChange(transaction, id, 'joined', at, null, { position: entry.position, seats: entry.seats, attendance: entry.attendance })
    await enqueueMails(transaction, id, [{ topic: 'waiting-list.place', mail: waitingListPlaceMail(mailContextOf(entry, event, settings)) }], at)
    return { id, position: entry.position }
  })
  context.onMailQueued?.()
  return place
}

/** What an offer made inside a transaction adds to the caller's audit, and whether it queued mail. */
export interface OffersMade {
  audit: AuditedChange[]
  mailQueued: boolean
}

/** Offers an entry its seats: a new private token, held until the business clock's now plus the offer hours, e-mailed. */
async function offerEntry(
  transaction: Transaction<Database>,
  context: WaitingListContext,
  entry: EntryRow,
  event: RegistrationEvent,
  settings: SiteSettingsForMail,
  actor: StaffActor | null,
): Promise<AuditedChange> {
  const at = wallClock(context)
  const offeredUntil = new Date(businessClock(context).getTime() + offerHoursOf(context) * 3_600_000)
  const token = generateSecret()
  await transaction
    .updateTable('waiting_list_entries')
    .set({ state: 'offered', offer_token_hash: sha256Hex(token), offered_until: offeredUntil.toISOString(), updated_at: at.toISOString() })
    .where('id', '=', entry.id)
    .execute()
  const after = { state: 'offered', seats: entry.seats, attendance: entry.attendance, offeredUntil: offeredUntil.toISOString() }
  await recordChange(transaction, entry.id, 'offered', at, actor, after)
  const mail = waitingListOfferMail({ ...mailContextOf(entry, event, settings), offerUrl: offerUrlOf(event, token), offeredUntil })
  await enqueueMails(transaction, entry.id, [{ topic: 'waiting-list.offer', mail }], at)
  return { action: 'waiting-list-seats-offered', subjectType: 'waiting-list-entry', subjectId: entry.id, before: { state: entry.state }, after }
}

/**
 * Offers the seats free at an event to the entries waiting, in the order they joined: each entry whose seats fit what
 * is left gets an offer, an entry asking for more is passed over until enough are free. Runs in the caller's
 * transaction under the event's seat lock, so an offer never holds a seat a registration took meanwhile. Nothing is
 * offered once registration has closed.
 */
export async function offerFreedSeats(
  transaction: Transaction<Database>,
  context: WaitingListContext,
  event: RegistrationEvent,
  settings: SiteSettingsForMail,
): Promise<OffersMade> {
  const made: OffersMade = { audit: [], mailQueued: false }
  if (!isRegistrationOpen(event, businessClock(context))) return made
  const waitingEntries = () =>
    transaction.selectFrom('waiting_list_entries').selectAll().where('event_id', '=', event.id).where('state', '=', 'waiting').orderBy('position').execute()
  if ((await waitingEntries()).length === 0) return made
  await lockEventSeats(transaction, event.id, wallClock(context))
  // Read again under the lock: another instance may have offered some of them meanwhile.
  const waiting = await waitingEntries()
  const left = await seatsLeftAt(transaction, event)
  for (const entry of waiting) {
    const free = left[entry.attendance]
    if (free !== null && entry.seats > free) continue
    if (free !== null) left[entry.attendance] = free - entry.seats
    made.audit.push(await offerEntry(transaction, context, entry, event, settings, null))
    made.mailQueued = true
  }
  return made
}

/**
 * What a cancellation needs to give its freed seats to the waiting list: the registration's event, read before the
 * command's transaction so the catalog is not asked inside it. Undefined when the event is gone from the content.
 */
export async function eventOfRegistration(context: WaitingListContext, reference: string): Promise<RegistrationEvent | undefined> {
  const row = await context.db.kysely.selectFrom('registrations').select('event_slug').where('reference', '=', reference).executeTakeFirst()
  return row ? context.catalog.getEvent(row.event_slug) : undefined
}

/**
 * Lets lapsed offers go and gives their seats (and any other free ones) to the next entries that fit, event by event:
 * an offer lapses when the business clock (SITE_DATE) passes its end. Each lapsed entry is told by e-mail. Answers how
 * many offers were made or lapsed.
 */
export async function sweepWaitingLists(context: WaitingListContext): Promise<number> {
  const now = businessClock(context).toISOString()
  const events = await context.db.kysely
    .selectFrom('waiting_list_entries')
    .select('event_slug')
    .distinct()
    .where((eb) => eb.or([eb('state', '=', 'waiting'), eb.and([eb('state', '=', 'offered'), eb('offered_until', '<=', now)])]))
    .execute()
  if (events.length === 0) return 0
  const settings = await context.catalog.getSettings()
  let changes = 0
  for (const { event_slug: slug } of events) {
    const event = await context.catalog.getEvent(slug)
    if (!event) continue
    const made = await context.db.writeTransaction(async (transaction) => {
      const at = wallClock(context)
      await lockEventSeats(transaction, event.id, at)
      const lapsed = await transaction
        .selectFrom('waiting_list_entries')
        .selectAll()
        .where('event_id', '=', event.id)
        .where('state', '=', 'offered')
        .where('offered_until', '<=', now)
        .execute()
      for (const entry of lapsed) {
        await transaction
          .updateTable('waiting_list_entries')
          .set({ state: 'expired', offer_token_hash: null, updated_at: at.toISOString() })
          .where('id', '=', entry.id)
          .execute()
        await recordChange(transaction, entry.id, 'expired', at, null, { offeredUntil: entry.offered_until })
        await enqueueMails(
          transaction,
          entry.id,
          [{ topic: 'waiting-list.expired', mail: waitingListOfferExpiredMail(mailContextOf(entry, event, settings)) }],
          at,
        )
      }
      return lapsed.length + (await offerFreedSeats(transaction, context, event, settings)).audit.length
    })
    changes += made
  }
  if (changes > 0) context.onMailQueued?.()
  return changes
}

/** Sweeps the waiting lists now and then every `intervalMs` (sweepWaitingLists), until stopped. */
export function startWaitingListSweeps(options: { context: WaitingListContext; log: (line: string) => void; intervalMs?: number }): { stop(): Promise<void> } {
  return startRecurringRound(
    'waiting lists',
    async () => {
      await sweepWaitingLists(options.context)
    },
    { intervalMs: options.intervalMs ?? WAITING_LIST_SWEEP_INTERVAL_MS, log: options.log },
  )
}

/** An offer link as the event page sees it: the seats it holds and for whom, or why it holds none any more. */
export type WaitingListOffer =
  | {
      status: 'held'
      entryId: string
      eventId: string
      seats: number
      attendance: SeatKind
      offeredUntil: string
      name: string
      companyName: string
      email: string
      tel: string
    }
  | { status: 'expired' | 'used' }

/** The offer a link's token names, judged at the business clock; `expired` also for a token no entry holds. */
export async function waitingListOfferOf(context: Pick<BackOfficeContext, 'db' | 'now' | 'siteNow'>, token: string): Promise<WaitingListOffer> {
  const entry =
    token === ''
      ? undefined
      : await context.db.kysely.selectFrom('waiting_list_entries').selectAll().where('offer_token_hash', '=', sha256Hex(token)).executeTakeFirst()
  return offerStatusOf(entry, businessClock(context as BackOfficeContext))
}

function offerStatusOf(entry: EntryRow | undefined, now: Date): WaitingListOffer {
  if (entry?.state === 'registered') return { status: 'used' }
  if (!entry || entry.state !== 'offered' || entry.offered_until === null || entry.offered_until <= now.toISOString()) return { status: 'expired' }
  return {
    status: 'held',
    entryId: entry.id,
    eventId: entry.event_id,
    seats: entry.seats,
    attendance: entry.attendance,
    offeredUntil: entry.offered_until,
    name: entry.name,
    companyName: entry.company_name,
    email: entry.email,
    tel: entry.tel,
  }
}

/** The seats an offer holds for the registration made through it, once checked (claimOffer). */
export interface ClaimedOffer {
  entryId: string
  held: Partial<SeatCounts>
}

/**
 * Checks, inside a registration's transaction, the offer it is made through: it must hold seats of this event until
 * after `now`. Refused with `offer-expired` (lapsed, removed, unknown) or `offer-used`, changing nothing.
 */
export async function claimOffer(transaction: Transaction<Database>, token: string, eventId: string, now: Date): Promise<ClaimedOffer> {
  const entry = await transaction.selectFrom('waiting_list_entries').selectAll().where('offer_token_hash', '=', sha256Hex(token)).executeTakeFirst()
  const offer = offerStatusOf(entry?.event_id === eventId ? entry : undefined, now)
  if (offer.status !== 'held')
    throw new ValidationError(offer.status === 'used' ? 'offer-used' : 'offer-expired', [
      { path: 'offer', code: offer.status === 'used' ? 'offer-used' : 'offer-expired' },
    ])
  return { entryId: offer.entryId, held: { [offer.attendance]: offer.seats } }
}

/** Marks the offer's entry registered, once the registration made through it is stored in the same transaction. */
export async function markOfferRegistered(
  transaction: Transaction<Database>,
  claimed: ClaimedOffer,
  registration: { id: string; reference: string },
  at: Date,
): Promise<void> {
  await transaction
    .updateTable('waiting_list_entries')
    .set({ state: 'registered', registration_id: registration.id, updated_at: at.toISOString() })
    .where('id', '=', claimed.entryId)
    .execute()
  await recordChange(transaction, claimed.entryId, 'registered', at, null, { reference: registration.reference })
}

/** One entry as the back office lists it. */
export interface WaitingListEntry {
  id: string
  position: number
  name: string
  companyName: string
  email: string
  tel: string
  seats: number
  attendance: SeatKind
  state: WaitingListState
  offeredUntil: string | null
  joinedAt: string
}

/** An event's waiting list in the order people joined, every state included. */
export async function waitingListOf(queries: Kysely<Database>, eventId: string): Promise<WaitingListEntry[]> {
  const rows = await queries.selectFrom('waiting_list_entries').selectAll().where('event_id', '=', eventId).orderBy('position').execute()
  return rows.map((row) => ({
    id: row.id,
    position: row.position,
    name: row.name,
    companyName: row.company_name,
    email: row.email,
    tel: row.tel,
    seats: row.seats,
    attendance: row.attendance,
    state: row.state,
    offeredUntil: row.offered_until,
    joinedAt: row.created_at,
  }))
}

/** How many entries of each event are still waiting or holding an offer: the waiting list's length. */
export async function waitingListLengths(queries: Kysely<Database>, eventIds: readonly string[]): Promise<Map<string, number>> {
  const lengths = new Map<string, number>(eventIds.map((id) => [id, 0]))
  if (eventIds.length === 0) return lengths
  const rows = await queries
    .selectFrom('waiting_list_entries')
    .select('event_id')
    .select((eb) => eb.fn.countAll<number | string>().as('entries'))
    .where('event_id', 'in', [...eventIds])
    .where('state', 'in', ['waiting', 'offered'])
    .groupBy('event_id')
    .execute()
  for (const row of rows) lengths.set(row.event_id, Number(row.entries))
  return lengths
}

const entrySchema = z.object({ entryId: requiredLine(36) })

/** Reads an entry and its event for a staff command, before its transaction. */
async function entryAndEvent(context: WaitingListContext, entryId: string): Promise<{ event: RegistrationEvent; settings: SiteSettingsForMail }> {
  const row = await context.db.kysely.selectFrom('waiting_list_entries').select('event_slug').where('id', '=', entryId).executeTakeFirst()
  const event = row ? await context.catalog.getEvent(row.event_slug) : undefined
  if (!event) throw new BackOfficeError('not-found', { missing: 'waiting-list-entry' })
  return { event, settings: await context.catalog.getSettings() }
}

async function lockedEntry(transaction: Transaction<Database>, entryId: string): Promise<EntryRow> {
  const entry = await transaction.selectFrom('waiting_list_entries').selectAll().where('id', '=', entryId).executeTakeFirst()
  if (!entry) throw new BackOfficeError('not-found', { missing: 'waiting-list-entry' })
  return entry
}

/**
 * Staff offer an entry its seats by hand (waiting, or after its offer lapsed), when that many are free: the same offer
 * and e-mail as a freed seat makes. Refused with the count free when they are not.
 */
export const offerWaitingListSeats = staffCommand(entrySchema, async (context: WaitingListContext, input, actor) => {
  const { event, settings } = await entryAndEvent(context, input.entryId)
  return async (transaction) => {
    await lockEventSeats(transaction, event.id, wallClock(context))
    const entry = await lockedEntry(transaction, input.entryId)
    if (entry.state !== 'waiting' && entry.state !== 'expired') {
      throw new BackOfficeError('entry-closed', { state: entry.state })
    }
    const free = (await seatsLeftAt(transaction, event))[entry.attendance]
    if (free !== null && free < entry.seats) {
      throw new BackOfficeError('not-enough-seats', {
        seatsLeft: free,
        seatsWanted: entry.seats,
      })
    }
    const audit = await offerEntry(transaction, context, entry, event, settings, actor)
    return { result: { entryId: entry.id }, audit: [audit], mailQueued: true }
  }
})

/** Staff remove an entry (waiting or offered); the seats an offer held go to the next entries that fit. */
export const removeWaitingListEntry = staffCommand(entrySchema, async (context: WaitingListContext, input, actor) => {
  const { event, settings } = await entryAndEvent(context, input.entryId)
  return async (transaction) => {
    const at = wallClock(context)
    await lockEventSeats(transaction, event.id, at)
    const entry = await lockedEntry(transaction, input.entryId)
    if (entry.state !== 'waiting' && entry.state !== 'offered') {
      throw new BackOfficeError('entry-closed', { state: entry.state })
    }
    await transaction
      .updateTable('waiting_list_entries')
      .set({ state: 'removed', offer_token_hash: null, updated_at: at.toISOString() })
      .where('id', '=', entry.id)
      .execute()
    await recordChange(transaction, entry.id, 'removed', at, actor, { before: entry.state })
    const removed: AuditedChange = {
      action: 'waiting-list-entry-removed',
      subjectType: 'waiting-list-entry',
      subjectId: entry.id,
      before: { state: entry.state },
      after: { state: 'removed' },
    }
    const offers = await offerFreedSeats(transaction, context, event, settings)
    return { result: { entryId: entry.id }, audit: [removed, ...offers.audit], mailQueued: offers.mailQueued }
  }
})
