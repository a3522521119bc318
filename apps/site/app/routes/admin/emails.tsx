import { listFailedMessages, retryFailedMessage } from '@events/core'
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

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const failed = await readBackOffice(args.context, listFailedMessages)
  const retried = new URL(args.request.url).searchParams.get('retried')
  return data({ failed, retried }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const messageId = formText(form, 'message')
  const retried = await runStaffCommand(args.context, session.user, retryFailedMessage, { messageId })
  if (!retried.ok) return data({ error: Object.values(retried.fields)[0] ?? retried.message }, { status: retried.status })
  // Post/redirect/get: reloading the page does not post the retry again.
  throw redirect(`/admin/emails?retried=${encodeURIComponent(messageId)}`)
}

export default function Emails({ loaderData, actionData }: Route.ComponentProps) {
  const { failed, retried } = loaderData
  return (
    <>
      <h1>E-mails</h1>
      <p>E-mails the outbox gave up on after trying for a day. Once the cause is fixed (a full mailbox, a mistyped address), send them again.</p>
      <AdminMessages
        notice={retried && !actionData ? 'The e-mail is back in the queue and goes out within a minute. The home page shows how many are waiting.' : undefined}
        error={actionData?.error}
      />
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
              <th scope="row">
                <MailTopic topic={message.topic} subject={message.subject} />
              </th>
              <td>{message.to.join(', ')}</td>
              <td>{message.reference ? <Link to={`/admin/registrations/${message.reference}`}>{message.reference}</Link> : '—'}</td>
              <td>
                <AdminTime iso={message.createdAt} />
              </td>
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
      <BackOfficeHomeLink />
    </>
  )
}
