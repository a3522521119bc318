import { useClient, type DocumentActionComponent } from 'sanity'
import { SANITY_API_VERSION } from '../lib/apiVersion.ts'
import { redirectChangesForRename, type EventAddress, type RedirectDocument } from '../lib/redirects.ts'

type EventDocument = { kind?: string; slug?: { current?: string } }

const addressOf = (event: EventDocument | null): EventAddress => ({ kind: event?.kind, slug: event?.slug?.current })

/**
 * The studio's Publish, which first writes a redirect from the event's published address when its slug or kind
 * changes, so links to the old address keep working (see redirectChangesForRename).
 */
export function withSlugRedirect(publish: DocumentActionComponent): DocumentActionComponent {
  const PublishWithRedirect: DocumentActionComponent = (props) => {
    const client = useClient({ apiVersion: SANITY_API_VERSION })
    const published = publish(props)
    if (published === null) return null
    return {
      ...published,
      onHandle: async () => {
        const existing = await client.fetch<RedirectDocument[]>('*[_type == "redirect" && !(_id in path("drafts.**"))]{ _id, from, to }')
        const changes = redirectChangesForRename(addressOf(props.published as EventDocument | null), addressOf(props.draft as EventDocument | null), existing)
        if (changes) {
          const transaction = client.transaction().create({ _id: `redirect-${crypto.randomUUID()}`, _type: 'redirect', ...changes.create })
          for (const { _id, to } of changes.retarget) transaction.patch(_id, { set: { to } })
          for (const id of changes.remove) transaction.delete(id)
          await transaction.commit()
        }
        published.onHandle?.()
      },
    }
  }
  PublishWithRedirect.action = 'publish'
  return PublishWithRedirect
}
