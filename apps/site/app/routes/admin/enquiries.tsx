import {
  addEnquiryNote,
  ENQUIRY_STATUSES,
  getEnquiry,
  listEnquiries,
  replyToEnquiry,
  updateEnquiry,
  type EnquiryDetail,
  type EnquiryStatus,
  type EnquirySummary,
  type StaffCommand,
} from '@events/core'
import { data, Form, Link } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { attemptChange, backOfficeContext, runStaffCommand } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { ENQUIRY_KIND_NAMES, ENQUIRY_STATUS_NAMES } from '../../lib/enquiry-names'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/enquiries'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Enquiries')
}

// One route for the inbox and each enquiry (`?id=`), so the list and the enquiry share a guard and an address.
export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const { staff } = args.context.get(servicesContext)
  const search = new URL(args.request.url).searchParams
  const id = search.get('id')
  if (id) {
    const found = await attemptChange(args.context, () => getEnquiry(backOfficeContext(args.context), id))
    if (!found.ok) throw data(found.message, { status: 404 })
    const members = await fromDatabase(args.context, () => staff.listStaff())
    return data({ view: 'enquiry' as const, enquiry: found.value, members: members.map((member) => ({ id: member.id, name: member.name })) }, { headers })
  }
  const requested = search.get('status') ?? ''
  const status = (ENQUIRY_STATUSES as readonly string[]).includes(requested) ? (requested as EnquiryStatus) : undefined
  const enquiries = await fromDatabase(args.context, () => listEnquiries(backOfficeContext(args.context), { status }))
  return data({ view: 'list' as const, enquiries, status: status ?? '' }, { headers })
}

type ActionAnswer = { notice: string | null; error: string | null }

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { request, context } = args
  const enquiryId = new URL(request.url).searchParams.get('id') ?? ''
  const { staff: staffAccounts } = context.get(servicesContext)
  const intent = formText(form, 'intent')
  const refused = (message: string, status = 400) => data<ActionAnswer>({ notice: null, error: message }, { status })
  const run = async <Input, Result>(command: StaffCommand<Input, Result>, input: Record<string, unknown>, notice: string) => {
    const done = await runStaffCommand(context, session.user, command, { ...input, enquiryId })
    return done.ok ? { notice, error: null } : refused(Object.values(done.fields)[0] ?? done.message, done.status)
  }

  if (intent === 'update') {
    const assigneeId = formText(form, 'assignee')
    const members = await fromDatabase(context, () => staffAccounts.listStaff())
    const member = members.find((candidate) => candidate.id === assigneeId)
    if (assigneeId !== '' && !member) return refused('That staff member no longer has an account. Choose another.')
    const input = { status: formText(form, 'status'), statusShown: formText(form, 'statusShown'), assigneeId, assigneeName: member?.name ?? '' }
    return run(updateEnquiry, input, 'Status and assignee saved.')
  }
  if (intent === 'note') return run(addEnquiryNote, { note: formText(form, 'note') }, 'Note added.')
  if (intent === 'reply') {
    return run(replyToEnquiry, { subject: formText(form, 'subject'), text: formText(form, 'text') }, 'Your reply is on its way.')
  }
  return refused('This form does not say what to do. Reload the page and try again.')
}

const STATUS_CHOICES = Object.entries(ENQUIRY_STATUS_NAMES)

const DELIVERY_NAMES: Record<string, string> = { pending: 'being sent', sent: 'sent', failed: 'could not be delivered' }

function EnquiryList({ enquiries, status }: { enquiries: EnquirySummary[]; status: string }) {
  return (
    <>
      <h1>Enquiries</h1>
      <p>Contact-form enquiries and in-house and online training requests, newest first. Times are South African.</p>
      <Form method="get" className="admin-filter">
        <label htmlFor="enquiry-status">Show</label>
        <select id="enquiry-status" name="status" defaultValue={status}>
          <option value="">Every status</option>
          <Options choices={STATUS_CHOICES} />
        </select>
        <SubmitButton secondary>Show</SubmitButton>
      </Form>
      {enquiries.length === 0 ? (
        <p>No enquiries{status ? ' with this status' : ''}.</p>
      ) : (
        <AdminTable caption="Enquiries and training requests" scrollLabel="Enquiries" columns={['Received', 'From', 'Kind', 'Status', 'Assigned to']}>
          {enquiries.map((enquiry) => (
            <tr key={enquiry.id}>
              <td>
                <AdminTime iso={enquiry.receivedAt} precision="minute" />
              </td>
              <td>
                <Link to={`/admin/enquiries?id=${encodeURIComponent(enquiry.id)}`}>{enquiry.name}</Link>
                {enquiry.organisation ? `, ${enquiry.organisation}` : ''}
              </td>
              <td>
                {ENQUIRY_KIND_NAMES[enquiry.kind]}
                {enquiry.kind === 'contact' ? `: ${enquiry.topic}` : ''}
              </td>
              <td>{ENQUIRY_STATUS_NAMES[enquiry.status]}</td>
              <td>{enquiry.assignee?.name ?? 'Nobody'}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <BackOfficeHomeLink />
    </>
  )
}

function EnquiryPage({
  enquiry,
  members,
  actionData,
}: {
  enquiry: EnquiryDetail
  members: Array<{ id: string; name: string }>
  actionData: Route.ComponentProps['actionData']
}) {
  return (
    <>
      <h1>
        {ENQUIRY_KIND_NAMES[enquiry.kind]} from {enquiry.name}
      </h1>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      <dl className="admin-details">
        <dt>Received</dt>
        <dd>
          <AdminTime iso={enquiry.receivedAt} precision="minute" />
        </dd>
        <dt>E-mail address</dt>
        <dd>{enquiry.email}</dd>
        <dt>Phone</dt>
        <dd>{enquiry.phone}</dd>
        {enquiry.organisation ? (
          <>
            <dt>Organisation</dt>
            <dd>{enquiry.organisation}</dd>
          </>
        ) : null}
        <dt>{enquiry.kind === 'contact' ? 'Interest' : 'Kind'}</dt>
        <dd>{enquiry.topic}</dd>
      </dl>
      <h2>Message</h2>
      <p className="admin-message">{enquiry.message}</p>

      <section aria-labelledby="handling-heading">
        <h2 id="handling-heading">Status and assignee</h2>
        {/* Keyed by what it shows, so a reply that made the enquiry in progress shows in the box at once (with JavaScript the page is not reloaded). */}
        <Form method="post" className="form" key={`handling-${enquiry.status}-${enquiry.assignee?.id ?? ''}`}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="statusShown" value={enquiry.status} />
          <FieldRow id="enquiry-status" label="Status">
            <select id="enquiry-status" name="status" defaultValue={enquiry.status}>
              <Options choices={STATUS_CHOICES} />
            </select>
          </FieldRow>
          <FieldRow id="enquiry-assignee" label="Assigned to">
            <select id="enquiry-assignee" name="assignee" defaultValue={enquiry.assignee?.id ?? ''}>
              <option value="">Nobody</option>
              <Options choices={members.map((member) => [member.id, member.name] as const)} />
            </select>
          </FieldRow>
          <SubmitButton>Save status and assignee</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="thread-heading">
        <h2 id="thread-heading">Notes and replies</h2>
        {enquiry.activity.length === 0 ? <p>None yet.</p> : null}
        <ol className="admin-thread">
          {enquiry.activity.map((entry) => (
            <li key={entry.id}>
              <p>
                <strong>{entry.kind === 'note' ? 'Internal note' : `Reply “${entry.subject}”`}</strong> by {entry.author},{' '}
                <AdminTime iso={entry.createdAt} precision="minute" />
                {entry.delivery ? ` (${DELIVERY_NAMES[entry.delivery] ?? entry.delivery})` : ''}
              </p>
              <p className="admin-message">{entry.body}</p>
            </li>
          ))}
        </ol>
        {/* Keyed by the thread's length: once the note is in the thread, the form starts empty again. */}
        <Form method="post" className="form" key={`note-${enquiry.activity.length}`}>
          <input type="hidden" name="intent" value="note" />
          <FieldRow id="enquiry-note" label="Internal note (never sent)">
            <textarea id="enquiry-note" name="note" rows={3} required maxLength={5000} />
          </FieldRow>
          <SubmitButton secondary>Add note</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="reply-heading">
        <h2 id="reply-heading">Reply to {enquiry.name}</h2>
        <p>Sent to {enquiry.email} from the organiser’s address, with their message quoted, and kept above.</p>
        <Form method="post" className="form" key={`reply-${enquiry.activity.length}`}>
          <input type="hidden" name="intent" value="reply" />
          <FieldRow id="reply-subject" label="Subject (optional)">
            <input id="reply-subject" name="subject" maxLength={200} autoComplete="off" />
          </FieldRow>
          <FieldRow id="reply-text" label="Reply">
            <textarea id="reply-text" name="text" rows={8} required maxLength={5000} />
          </FieldRow>
          <SubmitButton>Send reply</SubmitButton>
        </Form>
      </section>
      <p>
        <Link to="/admin/enquiries">All enquiries</Link> · <Link to="/admin">Back-office home</Link>
      </p>
    </>
  )
}

export default function Enquiries({ loaderData, actionData }: Route.ComponentProps) {
  return loaderData.view === 'enquiry' ? (
    <EnquiryPage enquiry={loaderData.enquiry} members={loaderData.members} actionData={actionData} />
  ) : (
    <EnquiryList enquiries={loaderData.enquiries} status={loaderData.status} />
  )
}
