import type { Source } from 'sanity'
import { createStructureBuilder } from 'sanity/structure'
import { describe, expect, it } from 'vitest'
import { compileStudioSchema } from './lib/datasetValidation.ts'
import { EVENT_PARTS } from './lib/eventParts.ts'
import { structure } from './structure.ts'

type Node = { id: string; type?: string; child?: unknown; items?: Node[]; options?: { filter?: string; params?: object; id?: string; type?: string } }
type Serializable = { serialize: () => Node }

// The parts of a workspace the structure builder reads to describe lists.
const source = {
  schema: compileStudioSchema(),
  templates: [],
  getClient: () => ({}),
  i18n: { t: (key: string) => key },
  currentUser: null,
  document: { resolveNewDocumentOptions: () => [] },
} as unknown as Source
const S = createStructureBuilder({ source, perspectiveStack: [] })
const root = (structure(S, {} as never) as unknown as Serializable).serialize()

async function openChild(node: Node | undefined, id: string): Promise<Node> {
  const child = typeof node?.child === 'function' ? await (node.child as (id: string, context: object) => unknown)(id, {}) : node?.child
  return typeof (child as Serializable).serialize === 'function' ? (child as Serializable).serialize() : (child as Node)
}

describe('the desk structure', () => {
  it('lists the site settings, the events and the shared documents; speakers and sponsor packages also sit under their events', () => {
    expect(root.items!.map((item) => item.id)).toEqual(['siteSettings', '__divider__1', 'events', 'page', 'speaker', 'sponsorPackage', 'division', 'redirect'])
  })

  it('opens an event onto the event and the speakers and sponsor packages it uses', async () => {
    const events = await openChild(
      root.items!.find((item) => item.id === 'events'),
      'events',
    )
    expect(events).toMatchObject({ type: 'documentList', options: { filter: '_type == $type', params: { type: 'event' } } })

    const pfas = await openChild(events, 'event-pfas')
    expect(pfas.items!.map((item) => item.id)).toEqual(['event', expect.stringMatching(/^__divider__/), 'speakers', 'sponsor-packages'])
    expect(await openChild(pfas.items![0], 'event')).toMatchObject({ type: 'document', options: { id: 'event-pfas', type: 'event' } })
    for (const part of EVENT_PARTS) {
      const list = await openChild(
        pfas.items!.find((item) => item.id === part.id),
        part.id,
      )
      expect(list, part.id).toMatchObject({ type: 'documentList', options: { filter: part.filter, params: { eventId: 'event-pfas' } } })
    }
  })
})
