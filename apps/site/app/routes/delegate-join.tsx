import { joinMeeting, joinPage } from '@events/core'
import { data, Form } from 'react-router'
import type { Route } from './+types/delegate-join'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'

// A delegate's personal join link. Opening it shows a button rather than leaving at once: mail scanners open the links
// of the e-mails they check, and a visit of theirs must not count as the delegate's attendance. The button's post
// records the day's online attendance and answers a page that opens the meeting (a refresh to its address, with a link
// as well): the Content-Security-Policy's form-action would refuse a post redirected to another site.
const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }

export async function loader({ context, params }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const page = await fromDatabase(context, () => joinPage(core.registrations, params.token))
  if (!page) throw data('Join link not found', { status: 404, headers: privateHeaders })
  return data(page, { headers: privateHeaders })
}

export async function action({ context, params }: Route.ActionArgs) {
  const { core } = context.get(servicesContext)
  const joined = await fromDatabase(context, () => joinMeeting(core.registrations, params.token))
  if (!joined) throw data('Join link not found', { status: 404, headers: privateHeaders })
  if (joined.meetingUrl === '') return data({ notReady: true as const }, { status: 409, headers: privateHeaders })
  return data({ meetingUrl: joined.meetingUrl, recorded: joined.recordedDay !== undefined }, { headers: privateHeaders })
}

export function headers() {
  return privateHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Join ${loaderData.eventTitle}` : 'Join online' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function DelegateJoin({ loaderData: page, actionData }: Route.ComponentProps) {
  const ready = page.meetingReady && !(actionData && 'notReady' in actionData)
  const opening = actionData && 'meetingUrl' in actionData ? actionData : undefined
  return (
    <div className="section pass">
      <h1>Join {page.eventTitle} online</h1>
      <p>
        {page.name} · {page.days}
      </p>
      {opening ? (
        <>
          <meta httpEquiv="refresh" content={`0;url=${opening.meetingUrl}`} />
          <p role="status">
            {opening.recorded ? 'Your attendance today is recorded. ' : ''}Opening the meeting… If it does not open,{' '}
            <a href={opening.meetingUrl}>open the meeting</a>.
          </p>
        </>
      ) : ready ? (
        <>
          <p>
            {page.today
              ? 'Joining now records your attendance for today.'
              : 'The event is not running today: you can try the meeting link now; your attendance counts on the event’s days.'}
          </p>
          <Form method="post" reloadDocument>
            <input type="hidden" name="intent" value="join" />
            <button type="submit" className="button">
              Join the meeting
            </button>
          </Form>
        </>
      ) : (
        <p role="status">The meeting link is not published yet. Open this page again closer to the start; it will take you to the meeting.</p>
      )}
    </div>
  )
}
