import type { SanityClient } from '@sanity/client'
import {
  availabilityScheduleQuery,
  divisionsQuery,
  eventCardsQuery,
  eventPageQuery,
  eventSlugsQuery,
  pageQuery,
  registrationEventQuery,
  siteSettingsQuery,
  sponsorPackagesQuery,
  upcomingEventsQuery,
} from './queries.ts'

// The site renders whatever the dataset holds. A reference to a deleted document comes back from GROQ as null, and a
// dataset copy or partial import can hold a value of another shape; the studio's rules keep neither from being
// published through the Studio, but they arrive all the same. Each query's lists are therefore checked here, once,
// as content leaves the source: an item that is not whole is left out (a speaker card, a sponsor, a session, a price)
// and reported, so pages only ever see whole parts and never need a null check of their own.

/** A list inside a query result and what each of its items must have to be shown. */
interface ListRule {
  /** Where the list is: '' for a result that is itself a list, `a.b` for nested fields, `a[].b` for a list in each item of a list. */
  path: string
  /** Fields an item cannot be shown without (a missing or empty one leaves the item out). */
  required?: readonly string[]
  /** Fields that must be finite numbers when the item is shown (a price's amount). */
  numbers?: readonly string[]
  /** The list holds strings (tabs, addresses), not objects. */
  strings?: boolean
}

/** Fields that must be objects when present (a venue, a card): any other value is dropped. */
type ObjectPaths = readonly string[]

interface QueryRules {
  lists: readonly ListRule[]
  objects?: ObjectPaths
  /** Fields of the document the page falls back without (a venue, a summary): reported when missing, nothing left out. */
  expected?: readonly string[]
  /** The document's id where the query does not project `_id` (the site settings singleton). */
  documentId?: string
}

const eventRules: QueryRules = {
  lists: [
    { path: 'priceOptions', required: ['key'], numbers: ['amount'] },
    { path: 'agendaDays', required: ['date'] },
    { path: 'agendaDays[].sessions', required: ['title'] },
    { path: 'speakers', required: ['_id', 'name'] },
    { path: 'sponsorPackages', required: ['_id', 'title'] },
    { path: 'participatingCompanies', required: ['url'] },
    { path: 'tabs', strings: true },
    { path: 'overview.keyMessages' },
    { path: 'overview.objectives' },
  ],
  objects: ['venue', 'card', 'card.image', 'overview'],
  expected: ['title', 'slug', 'start', 'end', 'venue'],
}

const rulesByQuery = new Map<string, QueryRules>([
  [eventPageQuery, eventRules],
  // What registration, the door and certificates read: sessions by their times alone (the hours they count).
  [
    registrationEventQuery,
    {
      lists: [
        { path: 'priceOptions', required: ['key'], numbers: ['amount'] },
        { path: 'agendaDays', required: ['date'] },
        { path: 'agendaDays[].sessions', required: ['start', 'end'] },
      ],
      objects: ['venue'],
      expected: eventRules.expected,
    },
  ],
  [
    eventCardsQuery,
    {
      lists: [
        { path: '', required: ['_id', 'slug'] },
        { path: '[].priceOptions', required: ['key'], numbers: ['amount'] },
      ],
    },
  ],
  [
    upcomingEventsQuery,
    {
      lists: [
        { path: '', required: ['_id', 'slug', 'start'] },
        { path: '[].priceOptions', required: ['key'], numbers: ['amount'] },
      ],
    },
  ],
  [
    availabilityScheduleQuery,
    {
      lists: [
        { path: '', required: ['_id'] },
        { path: '[].options', required: ['key'] },
      ],
    },
  ],
  [eventSlugsQuery, { lists: [{ path: '', required: ['slug', 'kind'] }] }],
  [divisionsQuery, { lists: [{ path: '', required: ['_id', 'title'] }] }],
  [
    sponsorPackagesQuery,
    {
      lists: [
        { path: '', required: ['_id', 'title'] },
        { path: '[].benefits', strings: true },
      ],
    },
  ],
  [
    pageQuery,
    {
      lists: [
        { path: 'sections', required: ['_key'] },
        { path: 'cards', required: ['_key', 'title'] },
        { path: 'statistics', required: ['_key', 'value', 'label'] },
      ],
      objects: ['heroImage'],
    },
  ],
  [
    siteSettingsQuery,
    {
      lists: [
        { path: 'registrationNumbers', required: ['label', 'value'] },
        { path: 'addresses', strings: true },
        { path: 'phones', strings: true },
      ],
      objects: ['socialLinks', 'bankDetails', 'informationOfficer'],
      documentId: 'siteSettings',
    },
  ],
])

/** A part of the content left out because it was not whole, and the document that holds it. */
export interface ContentProblem {
  /** The `_id` of the document holding the broken part ('unknown' when the query returns none). */
  documentId: string
  /** Where in the document, e.g. `speakers[4]`. */
  path: string
  reason: string
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const isPresent = (value: unknown) => value !== undefined && value !== null && value !== ''

function whyNotWhole(item: unknown, rule: ListRule): string | undefined {
  if (rule.strings) return typeof item === 'string' ? undefined : 'is not text'
  if (!rule.required && !rule.numbers) return item === null || item === undefined ? 'is empty' : undefined
  if (item === null) return 'refers to a document that does not exist (deleted or never published)'
  if (!isObject(item)) return 'is not an object'
  const missing = (rule.required ?? []).filter((field) => !isPresent(item[field]))
  if (missing.length > 0) return `has no ${missing.join(', ')}`
  const notNumbers = (rule.numbers ?? []).filter((field) => typeof item[field] !== 'number' || !Number.isFinite(item[field]))
  if (notNumbers.length > 0) return `has no amount in ${notNumbers.join(', ')}`
  return undefined
}

/** Visits each list at `path` below `holder`, calling `visit` with the list's owner, field, the document id and a label. */
function eachAt(
  holder: unknown,
  path: string,
  documentId: string,
  label: string,
  visit: (owner: Json | null, field: string, value: unknown, documentId: string, label: string) => unknown,
): unknown {
  const listStep = path.indexOf('[]')
  if (listStep === -1) {
    if (path === '') return visit(null, '', holder, documentId, label)
    const parts = path.split('.')
    let owner: unknown = holder
    for (const part of parts.slice(0, -1)) owner = isObject(owner) ? owner[part] : undefined
    const field = parts.at(-1)!
    if (isObject(owner)) visit(owner, field, owner[field], documentId, `${label}${label ? '.' : ''}${path}`)
    return holder
  }
  const before = path.slice(0, listStep)
  const after = path.slice(listStep + 3)
  const list = before === '' ? holder : before.split('.').reduce<unknown>((value, part) => (isObject(value) ? value[part] : undefined), holder)
  if (Array.isArray(list)) {
    list.forEach((item, index) => {
      const itemId = isObject(item) && typeof item._id === 'string' ? item._id : documentId
      const itemLabel = itemId === documentId ? `${label}${before}[${index}]` : ''
      eachAt(item, after, itemId, itemLabel, visit)
    })
  }
  return holder
}

/**
 * Leaves out of a query's result every part that is not whole (a reference to a deleted document, an item missing a
 * field it cannot be shown without, a value of another shape) and says what was left out. A result of a query
 * without rules is returned as it is.
 */
export function keepWhole<Result>(query: string, result: Result): { value: Result; problems: ContentProblem[] } {
  const rules = rulesByQuery.get(query)
  if (!rules || result === null || result === undefined) return { value: result, problems: [] }
  const problems: ContentProblem[] = []
  const rootId = isObject(result) && typeof result._id === 'string' ? result._id : (rules.documentId ?? 'unknown')
  let value: unknown = result

  if (isObject(result)) {
    for (const field of rules.expected ?? []) {
      if (!isPresent(result[field])) problems.push({ documentId: rootId, path: field, reason: 'is missing' })
    }
  }
  for (const path of rules.objects ?? []) {
    eachAt(value, path, rootId, '', (owner, field, current, documentId, label) => {
      if (owner && current !== undefined && current !== null && !isObject(current)) {
        problems.push({ documentId, path: label, reason: 'is not an object' })
        delete owner[field]
      }
    })
  }
  for (const rule of rules.lists) {
    value = eachAt(value, rule.path, rootId, '', (owner, field, current, documentId, label) => {
      if (current === undefined || current === null) return current
      if (!Array.isArray(current)) {
        problems.push({ documentId, path: label || '(result)', reason: 'is not a list' })
        if (owner) owner[field] = []
        return []
      }
      const kept = current.filter((item, index) => {
        const itemId = owner === null && isObject(item) && typeof item._id === 'string' ? item._id : documentId
        const reason = whyNotWhole(item, rule)
        if (reason) problems.push({ documentId: itemId, path: `${label}[${index}]`, reason })
        return !reason
      })
      if (owner) owner[field] = kept
      return kept
    })
  }
  return { value: value as Result, problems }
}

type ProblemReporter = (problem: ContentProblem) => void
let reportProblem: ProblemReporter = () => {}
const reported = new Set<string>()

/**
 * Where left-out parts are reported (the server's log). Each is reported once until {@link forgetReportedContentProblems}
 * (a content change), since every page and refetch of a broken event meets the same part.
 */
export function reportContentProblemsTo(reporter: ProblemReporter): void {
  reportProblem = reporter
}

/** Reports the parts left out after a content change anew. */
export function forgetReportedContentProblems(): void {
  reported.clear()
}

/** Reports what {@link keepWhole} left out, each part once. */
export function reportLeftOut(problems: readonly ContentProblem[]): void {
  for (const problem of problems) {
    const key = `${problem.documentId} ${problem.path} ${problem.reason}`
    if (reported.has(key)) continue
    reported.add(key)
    reportProblem(problem)
  }
}

/** Runs a query with the content client and returns its result with the parts that are not whole left out (and reported). */
export async function fetchWholeContent<Result>(client: SanityClient, query: string, params: Record<string, unknown> = {}): Promise<Result> {
  const { value, problems } = keepWhole(query, await client.fetch<Result>(query, params))
  reportLeftOut(problems)
  return value
}
