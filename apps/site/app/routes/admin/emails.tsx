import { listFailedMessages, listUncertainMessages, retryFailedMessage, settleUncertainMessage, type FailedMessage } from '@events/core'
import { data, Form, Link, redirect } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/emails'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { SubmitButton } from '../../components/admin/FormControls'
import { MailTopic } from '../../components/admin/MailTopic'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('E-mails')
}

/** What the page says after staff decided about an uncertain e-mail, by the `settled` the redirect carries. */
const SETTLED_NOTICES: Readonly<Record<string, string>> = {
  arrived: 'The e-mail is recorded as sent; it will not be sent again.',
  'send-again': 'The e-mail is back in the queue and goes out again within a minute, under the same Message-ID.',
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const [failed, uncertain] = await Promise.all([readBackOffice(args.context, listFailedMessages), readBackOffice(args.context, listUncertainMessages)])
  const query = new URL(args.request.url).searchParams
  const settled = query.get('settled')
  const notice = query.has('retried')
    ? 'The e-mail is back in the queue and goes out within a minute. The home page shows how many are waiting.'
    : settled === null
      ? undefined
      : SETTLED_NOTICES[settled]
  return data({ failed, uncertain, notice }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const messageId = formText(form, 'message')
  const outcome = formText(form, 'outcome')
  const done =
    outcome === ''
      ? await runStaffCommand(args.context, session.user, retryFailedMessage, { messageId })
      : await runStaffCommand(args.context, session.user, settleUncertainMessage, { messageId, outcome })
  if (!done.ok) return data({ error: Object.values(done.fields)[0] ?? done.message }, { status: done.status })
  // Post/redirect/get: reloading the page does not post the action again.
  throw redirect(outcome === '' ? `/admin/emails?retried=${encodeURIComponent(messageId)}` : `/admin/emails?settled=${encodeURIComponent(outcome)}`)
}

/** The cells both lists begin a message's row with: what it is, to whom, its registration and when it was queued. */
function MessageCells({ message }: { message: FailedMessage }) {
  return (
    <>
      <th scope="row">
        <MailTopic topic={message.topic} subject={message.subject} />
      </th>
      <td>{message.to.join(', ')}</td>
      <td>{message.reference ? <Link to={`/admin/registrations/${message.reference}`}>{message.reference}</Link> : '—'}</td>
      <td>
        <AdminTime iso={message.createdAt} />
      </td>
    </>
  )
}

export default function Emails({ loaderData, actionData }: Route.ComponentProps) {
  const { failed, uncertain, notice } = loaderData
  return (
    <>
      <h1>E-mails</h1>
      <AdminMessages notice={actionData ? undefined : notice} error={actionData?.error} />
      <section aria-labelledby="uncertain-heading">
        <h2 id="uncertain-heading">Not known whether they arrived</h2>
        <p>
          Sending these was interrupted (the server stopped, or lost its database, while it was handing them to the mail server), so they may have arrived or
          not. They are not sent again by themselves. Ask the recipient: if they have it, choose “It arrived”; if not, “Send again”.
        </p>
        {uncertain.length === 0 ? (
          <p>No e-mail is uncertain.</p>
        ) : (
          <AdminTable
            caption="E-mails not known to have arrived, newest first"
            scrollLabel="E-mails not known to have arrived"
            columns={['E-mail', 'To', 'Registration', 'Queued', { label: 'Decide', hidden: true }]}
          >
            {uncertain.map((message) => (
              <tr key={message.id}>
                <MessageCells message={message} />
                <td>
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="message" value={message.id} />
                    <SubmitButton secondary name="outcome" value="arrived" aria-label={`It arrived: ${message.subject} to ${message.to.join(', ')}`}>
                      It arrived
                    </SubmitButton>{' '}
                    <SubmitButton secondary name="outcome" value="send-again" aria-label={`Send again: ${message.subject} to ${message.to.join(', ')}`}>
                      Send again
                    </SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <section aria-labelledby="failed-heading">
        <h2 id="failed-heading">Failed</h2>
        <p>E-mails the outbox gave up on after trying for a day. Once the cause is fixed (a full mailbox, a mistyped address), send them again.</p>
        {failed.length === 0 ? (
          <p>No e-mail has failed.</p>
        ) : (
          <AdminTable
            caption="Failed e-mails, newest first"
            scrollLabel="Failed e-mails"
            columns={['E-mail', 'To', 'Registration', 'Queued', 'Last error', { label: 'Send again', hidden: true }]}
          >
            {failed.map((message) => (
              <tr key={message.id}>
                <MessageCells message={message} />
                <td>
                  {message.lastError ?? '—'} ({message.attempts} {message.attempts === 1 ? 'attempt' : 'attempts'})
                </td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="message" value={message.id} />
                    <SubmitButton aria-label={`Retry: ${message.subject} to ${message.to.join(', ')}`}>Retry</SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <BackOfficeHomeLink />
    </>
  )
}
