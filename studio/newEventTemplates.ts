import type { InitialValueResolverContext, Template } from 'sanity'
import { SANITY_API_VERSION } from './lib/apiVersion.ts'
import { newEventValue } from './lib/newEvent.ts'

const SPONSOR_PACKAGES_QUERY = '*[_type == "sponsorPackage" && !(_id in path("drafts.**"))] | order(rank asc)._id'

/**
 * "New conference" and "New workshop": events that start with the default tabs and the sponsor packages.
 * The studio also resolves these values to check permissions, so they only read; the standard price options
 * are added by the "Add standard price options" action.
 */
export const newEventTemplates: Template[] = (['conference', 'workshop'] as const).map((kind) => ({
  id: `event-${kind}`,
  title: kind === 'conference' ? 'New conference' : 'New workshop',
  schemaType: 'event',
  value: async (_params: unknown, context: InitialValueResolverContext) =>
    newEventValue(kind, await context.getClient({ apiVersion: SANITY_API_VERSION }).fetch<string[]>(SPONSOR_PACKAGES_QUERY)),
}))
