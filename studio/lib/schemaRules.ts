import type { DocumentRule, ValidationContext } from 'sanity'
import { SANITY_API_VERSION } from './apiVersion.ts'
import { SITE_SETTINGS_ID } from './siteSettingsId.ts'
import { checkDocument, TYPES_READ_BY_RULES, type ContentDocument, type Level, type Lookup, type TypeLookup } from './rules.ts'

/** The ids a value references, at any depth. */
function referencedIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds)
  if (value === null || typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  const own = typeof record._ref === 'string' ? [record._ref] : []
  return [...own, ...Object.values(record).flatMap(referencedIds)]
}

// The site settings too: the price rules read the VAT rate and the ceiling of a delegate's price from them.
async function lookupFor(document: ContentDocument, context: ValidationContext): Promise<Lookup> {
  const ids = [...new Set([...referencedIds(document), SITE_SETTINGS_ID])]
  const documents = await context.getClient({ apiVersion: SANITY_API_VERSION }).fetch<ContentDocument[]>('*[_id in $ids]', { ids })
  const byId = new Map(documents.map((referenced) => [referenced._id, referenced]))
  return (id) => byId.get(id)
}

// Published documents only: a draft's slug is not yet a path of the site.
async function typeLookupFor(document: ContentDocument, context: ValidationContext): Promise<TypeLookup> {
  const types = TYPES_READ_BY_RULES[document._type] ?? []
  if (types.length === 0) return () => []
  const documents = await context
    .getClient({ apiVersion: SANITY_API_VERSION })
    .fetch<ContentDocument[]>('*[_type in $types && !(_id in path("drafts.**"))]', { types })
  // The document being edited counts as it is now, not as it was published.
  const current = documents.filter((candidate) => candidate._id !== document._id.replace(/^drafts\./, ''))
  return (type) => [...current, document].filter((candidate) => candidate._type === type)
}

/**
 * The document-level validation of a type: its rules from rules.ts, each problem marked where it is (a field, or a
 * field of one price option or session), errors
 * and warnings as separate rules so the studio shows each at its level.
 */
export function documentRules(type: string) {
  return (rule: DocumentRule) =>
    (['error', 'warning'] as const satisfies Level[]).map((level) => {
      const custom = rule.custom(async (value, context) => {
        if (value === null || typeof value !== 'object') return true
        const document = { ...(value as ContentDocument), _type: type }
        const problems = checkDocument(document, await lookupFor(document, context), await typeLookupFor(document, context)).filter(
          (problem) => problem.level === level,
        )
        return problems.length === 0 ? true : problems.map((problem) => ({ message: problem.message, path: problem.path }))
      })
      return level === 'warning' ? custom.warning() : custom
    })
}
