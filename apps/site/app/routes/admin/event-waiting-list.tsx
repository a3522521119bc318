import { delegateListEvents, offerWaitingListSeats, removeWaitingListEntry, waitingListOf, type WaitingListState } from '@events/core'
import { data, Form, Link } from 'react-router'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/event-waiting-list'

export function meta() {
  return adminMeta('Waiting list')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const eventId = args.params.eventId
  const { event, entries } = await readBackOffice(args.context, async (backOffice) => ({
    event: (await delegateListEvents(backOffice)).find((candidate) => candidate.id === eventId),
    entries: await waitingListOf(backOffice.db.kysely, eventId),
  }))
  if (!event && entries.length === 0) throw data('No event has this key.', { status: 404 })
  return data({ title: event?.title ?? eventId, entries }, { headers })
}

/** "Offer seats" and "Remove": staff commands on one entry, each audited. */
export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const intent = formText(form, 'intent')
  const command = intent === 'remove' ? removeWaitingListEntry : offerWaitingListSeats
  const outcome = await runStaffCommand(args.context, session.user, command, { entryId: formText(form, 'entryId') })
  if (!outcome.ok) return data({ notice: null, error: refusalSentence(outcome) }, { status: outcome.status })
  return {
    notice: intent === 'remove' ? 'The entry was removed from the waiting list.' : 'The seats were offered: the e-mail with the private link is on its way.',
    error: null,
  }
}

const STATE_NAMES: Record<WaitingListState, string> = {
  waiting: 'Waiting',
  offered: 'Offered',
  registered: 'Registered',
  expired: 'Offer expired',
  removed: 'Removed',
}

export default function EventWaitingList({ loaderData, actionData }: Route.ComponentProps) {
  const { title, entries } = loaderData
  return (
    <>
      <h1>Waiting list: {title}</h1>
      <p>
        People waiting for seats, in the order they joined. Freed seats are offered by themselves to the first entries that fit; an offer holds its seats until
        the time shown, then they go to the next entry. “Offer seats” offers an entry its seats now, when that many are free.
      </p>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      {entries.length === 0 ? (
        <p>Nobody is on the waiting list.</p>
      ) : (
        <AdminTable
          caption="The waiting list in the order people joined"
          scrollLabel="Waiting list"
          columns={[{ label: 'Position', numeric: true }, 'Name and contact', { label: 'Seats', numeric: true }, 'State', { label: 'Actions', hidden: true }]}
        >
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className="admin-number">{entry.position}</td>
              <th scope="row">
                {entry.name}, {entry.companyName}
                <br />
                <span className="admin-table__detail">
                  <a href={`mailto:${entry.email}`}>{entry.email}</a>, {entry.tel}
                </span>
              </th>
              <td className="admin-number">
                {entry.seats} {entry.attendance === 'venue' ? 'at the venue' : 'online'}
              </td>
              <td>
                {STATE_NAMES[entry.state]}
                {entry.state === 'offered' && entry.offeredUntil && (
                  <>
                    <br />
                    <span className="admin-table__detail">
                      until <AdminTime iso={entry.offeredUntil} precision="minute" />
                    </span>
                  </>
                )}
              </td>
              <td>
                {(entry.state === 'waiting' || entry.state === 'expired' || entry.state === 'offered') && (
                  <Form method="post">
                    <input type="hidden" name="entryId" value={entry.id} />
                    {entry.state !== 'offered' && (
                      <SubmitButton secondary name="intent" value="offer">
                        Offer seats to {entry.name}
                      </SubmitButton>
                    )}
                    {entry.state !== 'expired' && (
                      <SubmitButton secondary name="intent" value="remove">
                        Remove {entry.name}
                      </SubmitButton>
                    )}
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <p>
        <Link to="/admin/events">Back to the events</Link>
      </p>
    </>
  )
}
