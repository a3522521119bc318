import { delegateMessagesOf, joiningScreen, previewDelegateMessage, sendDelegateMessage, type MessageFilters } from '@events/core'
import { data, Form } from 'react-router'
import { AdminField, adminFieldId } from '../../components/admin/AdminField'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { ErrorSummary } from '../../components/FormMessages'
import { adminMeta } from '../../lib/admin-meta'
import { formatAdminDay } from '../../lib/admin-format'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { attemptChange, eventScreenOr404, readBackOffice, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/delegate-messages'

export function meta({ loaderData }: Route.MetaArgs) {
  return adminMeta(loaderData ? `Messages to delegates: ${loaderData.event.title}` : 'Messages to delegates')
}

const ATTENDANCE_NAMES: Record<MessageFilters['attendance'], string> = { all: 'Venue and online', venue: 'At the venue', online: 'Online' }
const PAYMENT_NAMES: Record<MessageFilters['payment'], string> = { all: 'Paid or not', paid: 'Paid in full', unpaid: 'Not paid, or part paid' }
// The component runs in the browser too, where the core (server code) is not loaded: the choices come from the names.
const choicesOf = (names: Record<string, string>) => Object.entries(names)

const screenOr404 = (args: Route.LoaderArgs | Route.ActionArgs) => eventScreenOr404(args.context, args.params.eventId, joiningScreen)

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { event, days } = await screenOr404(args)
  const sent = await readBackOffice(args.context, (backOffice) => delegateMessagesOf(backOffice, args.params.eventId))
  return data({ event, days, sent }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  await screenOr404(args)
  const values = {
    subject: formText(form, 'subject'),
    body: formText(form, 'body'),
    attendance: formText(form, 'attendance'),
    payment: formText(form, 'payment'),
    day: formText(form, 'day'),
  }
  const input = { eventId: args.params.eventId, ...values }
  const previewed = () => attemptChange(args.context, () => readBackOffice(args.context, (backOffice) => previewDelegateMessage(backOffice, input)))
  if (formText(form, 'intent') === 'preview') {
    const preview = await previewed()
    if (!preview.ok) return data({ values, refused: { message: preview.message, fields: preview.fields } }, { status: preview.status, headers })
    return data({ values, preview: preview.value }, { headers })
  }
  const sent = await runStaffCommand(args.context, user, sendDelegateMessage, { ...input, confirmedRecipients: formText(form, 'confirmedRecipients') })
  if (!sent.ok) {
    // The preview again, with today's count, so staff can confirm what the message would now reach.
    const preview = await previewed()
    const refused = { message: sent.message, fields: sent.fields }
    return data({ values, refused, ...(preview.ok ? { preview: preview.value } : {}) }, { status: sent.status, headers })
  }
  return data({ sentTo: sent.value.recipientCount }, { headers })
}

const delegatesCount = (count: number) => `${count} ${count === 1 ? 'delegate' : 'delegates'}`

export default function DelegateMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { event, days, sent } = loaderData
  const values = actionData && 'values' in actionData ? actionData.values : undefined
  const refused = actionData && 'refused' in actionData ? actionData.refused : undefined
  const preview = actionData && 'preview' in actionData ? actionData.preview : undefined
  const sentTo = actionData && 'sentTo' in actionData ? actionData.sentTo : undefined
  const fields = refused?.fields ?? {}
  const dayName = (day: string, index: number) => `Day ${index + 1}, ${formatAdminDay(`${day}T12:00:00+02:00`)}`
  const dayChoices: Array<[string, string]> = [['', 'Every delegate'], ...days.map((day, index): [string, string] => [day, `Attended ${dayName(day, index)}`])]
  return (
    <>
      <h1>Messages to delegates: {event.title}</h1>
      <p>
        An e-mail to the event’s delegates the filters choose, each their own copy through the outbox, listed on their registration. Write {'{name}'} for each
        delegate’s name. Cancelled delegates and those whose address was erased are never written to.
      </p>
      <AdminMessages notice={sentTo !== undefined ? `The message is queued to ${delegatesCount(sentTo)}.` : undefined} />
      {refused ? (
        <ErrorSummary
          title={refused.message}
          fields={[
            { name: 'subject', label: 'Subject', id: adminFieldId('subject') },
            { name: 'body', label: 'Message', id: adminFieldId('body') },
            { name: 'day', label: 'Day', id: 'message-day' },
          ]}
          messages={fields}
        />
      ) : null}
      <Form method="post" className="form" noValidate>
        <AdminField name="subject" label="Subject" value={values?.subject ?? ''} error={fields.subject} />
        <AdminField name="body" label="Message" value={values?.body ?? ''} error={fields.body} multiline />
        <FieldRow id="message-attendance" label="Attendance">
          <select id="message-attendance" name="attendance" defaultValue={values?.attendance ?? 'all'}>
            <Options choices={choicesOf(ATTENDANCE_NAMES)} />
          </select>
        </FieldRow>
        <FieldRow id="message-payment" label="Payment">
          <select id="message-payment" name="payment" defaultValue={values?.payment ?? 'all'}>
            <Options choices={choicesOf(PAYMENT_NAMES)} />
          </select>
        </FieldRow>
        <FieldRow id="message-day" label="Day">
          <select id="message-day" name="day" defaultValue={values?.day ?? ''}>
            <Options choices={dayChoices} />
          </select>
        </FieldRow>
        <SubmitButton name="intent" value="preview">
          Preview
        </SubmitButton>
      </Form>
      {preview && values ? (
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          {preview.first ? (
            <>
              <p>
                <strong>This message goes to {delegatesCount(preview.recipientCount)}.</strong> As {preview.first.name} receives it:
              </p>
              <p>
                <strong>{preview.first.subject}</strong>
              </p>
              <pre className="admin-preview">{preview.first.text}</pre>
              {/* The message exactly as previewed: changing the text above needs a new preview before it can be sent. */}
              <Form method="post">
                {Object.entries(values).map(([name, value]) => (
                  <input key={name} type="hidden" name={name} value={value} />
                ))}
                <input type="hidden" name="confirmedRecipients" value={preview.recipientCount} />
                <SubmitButton name="intent" value="send">
                  Send to {delegatesCount(preview.recipientCount)}
                </SubmitButton>
              </Form>
            </>
          ) : (
            <p>No delegate matches these filters.</p>
          )}
        </section>
      ) : null}
      <section aria-labelledby="log-heading">
        <h2 id="log-heading">Sent messages</h2>
        {sent.length === 0 ? (
          <p>No message was sent to this event’s delegates.</p>
        ) : (
          <AdminTable
            caption={`Messages sent to the delegates of ${event.title}, newest first`}
            scrollLabel="Sent messages"
            columns={['Sent', 'Subject', 'To', { label: 'Delegates', numeric: true }, 'By']}
          >
            {sent.map((message) => (
              <tr key={message.sentAt}>
                <td>
                  <AdminTime iso={message.sentAt} />
                </td>
                <th scope="row">{message.subject}</th>
                <td>
                  {ATTENDANCE_NAMES[message.filters.attendance]}; {PAYMENT_NAMES[message.filters.payment]}
                  {message.filters.day ? `; attended ${formatAdminDay(`${message.filters.day}T12:00:00+02:00`)}` : ''}
                </td>
                <td className="admin-number">{message.recipientCount}</td>
                <td>{message.sentByName}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </>
  )
}
