import type { InitialValueResolverContext } from 'sanity'
import { describe, expect, it } from 'vitest'
import { newEventTemplates } from './newEventTemplates.ts'

describe('the new-event templates', () => {
  it('offer a new conference and a new workshop', () => {
    expect(newEventTemplates.map(({ id, title, schemaType }) => [id, title, schemaType])).toEqual([
      ['event-conference', 'New conference', 'event'],
      ['event-workshop', 'New workshop', 'event'],
    ])
  })

  it('start with the default tabs and the published sponsor packages, best first, and write nothing', async () => {
    const queries: string[] = []
    const client = {
      fetch: async (query: string) => (queries.push(query), ['sponsor-platinum', 'sponsor-gold', 'sponsor-silver']),
    }
    const context = { getClient: () => client } as unknown as InitialValueResolverContext
    const workshop = newEventTemplates.find((template) => template.id === 'event-workshop')!
    const value = await (workshop.value as (params: undefined, context: InitialValueResolverContext) => Promise<Record<string, unknown>>)(undefined, context)
    expect(queries).toEqual(['*[_type == "sponsorPackage" && !(_id in path("drafts.**"))] | order(rank asc)._id'])
    expect(value).toMatchObject({
      kind: 'workshop',
      tabs: ['overview', 'agenda', 'register', 'sponsor'],
      sponsorPackages: [{ _ref: 'sponsor-platinum' }, { _ref: 'sponsor-gold' }, { _ref: 'sponsor-silver' }],
    })
  })
})
