import { erasePersonalData, findPersonalData, type ErasureResult, type PersonalDataReport } from '@events/core'
import { roleAllows } from '@events/staff'
import { data, Form } from 'react-router'
import { formatAdminDay } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { attemptChange, backOfficeContext, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import { servicesContext } from '../../lib/services.server'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/data-requests'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta() {
  return adminMeta('Personal data requests')
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  return data(
    { retentionMonths: args.context.get(servicesContext).config.core.enquiryRetentionMonths, mayErase: roleAllows(user.role, 'manager') },
    { headers },
  )
}

type ActionAnswer = { report: PersonalDataReport | null; erased: ErasureResult | null; error: string | null }

// The address is posted, never put in the page's URL, so it stays out of access logs and browser history.
export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { context } = args
  const backOffice = backOfficeContext(context)
  const intent = formText(form, 'intent')
  const email = formText(form, 'email')
  const refused = (message: string) => data<ActionAnswer>({ report: null, erased: null, error: message }, { status: 400 })

  const found = await attemptChange(context, () => findPersonalData(backOffice, email))
  if (!found.ok) return refused(found.message)
  const report = found.value

  if (intent === 'erase') {
    // The command refuses a member below manager and an unticked box; the erasure and its audit row are one transaction.
    const erased = await runStaffCommand(context, session.user, erasePersonalData, { email: report.email, confirm: formText(form, 'confirm') })
    if (!erased.ok) return data<ActionAnswer>({ report, erased: null, error: refusalSentence(erased) }, { status: erased.status })
    return { report: null, erased: erased.value, error: null }
  }
  return { report, erased: null, error: null }
}

function erasedRegistrationText(registration: ErasureResult['registrationsErased'][number]): string {
  return `${registration.reference} (as ${registration.roles.join(' and ')}; invoice kept until ${registration.keptUntil})`
}

function Report({ report, mayErase }: { report: PersonalDataReport; mayErase: boolean }) {
  return (
    <section aria-labelledby="report-heading">
      <h2 id="report-heading">Held about {report.email}</h2>
      <h3>Registrations ({report.registrations.length})</h3>
      {report.registrations.length === 0 ? <p>None.</p> : null}
      <ul>
        {report.registrations.map((registration) => (
          <li key={registration.reference}>
            {registration.reference}, {registration.event}, as {registration.roles.join(' and ')}; {registration.company.name}
            {registration.invoice ? `, tax invoice ${registration.invoice.number}` : ''}; kept until {registration.keptUntil}
          </li>
        ))}
      </ul>
      <h3>Enquiries and training requests ({report.enquiries.length})</h3>
      {report.enquiries.length === 0 ? <p>None.</p> : null}
      <ul>
        {report.enquiries.map((enquiry) => (
          <li key={enquiry.id}>
            {formatAdminDay(enquiry.receivedAt)}: {enquiry.subject}, from {enquiry.name}
            {enquiry.thread.length ? ` (${enquiry.thread.length} notes and replies)` : ''}
          </li>
        ))}
      </ul>
      <h3>Waiting lists ({report.waitingList.length})</h3>
      {report.waitingList.length === 0 ? <p>None.</p> : null}
      <ul>
        {report.waitingList.map((entry) => (
          <li key={`${entry.event}:${entry.position}`}>
            {formatAdminDay(entry.joinedAt)}: {entry.event}, number {entry.position}, {entry.seats} {entry.attendance === 'venue' ? 'at the venue' : 'online'} (
            {entry.state})
          </li>
        ))}
      </ul>
      <h3>Sponsorship deals as contact ({report.sponsorshipDeals.length})</h3>
      {report.sponsorshipDeals.length === 0 ? <p>None.</p> : null}
      <ul>
        {report.sponsorshipDeals.map((deal) => (
          <li key={deal.reference}>
            {deal.reference}: {deal.companyName}, {deal.package} sponsorship of {deal.event} ({deal.status})
          </li>
        ))}
      </ul>
      <h3>E-mails ({report.emails.length})</h3>
      <p>Every e-mail sent or queued about these records is in the export, with its subject and recipients.</p>

      <h3>Export</h3>
      {/* A plain post to the export's resource route, even with JavaScript, so the browser saves the file it answers. */}
      <Form method="post" action="/admin/data-requests/export" reloadDocument>
        <input type="hidden" name="email" value={report.email} />
        <SubmitButton>Download everything as JSON</SubmitButton>
      </Form>

      <h3>Erase</h3>
      <p>
        Enquiries and training requests are anonymised with their notes and replies, and their e-mails deleted. In registrations, what is not on the tax invoice
        is anonymised now: a delegate&apos;s name, position and e-mail address; the registrant&apos;s e-mail address and telephone; the same in the e-mails
        still to be sent or sent again, and the e-mails to this address are deleted. The tax invoice and credit notes are kept as issued, with the company, its
        address and VAT number, for five years after the invoice, as SARS requires, and anonymised then by the retention job.
      </p>
      <p>
        A registration for an event not yet started in which this person still attends (or, as registrant, still has delegates attending) is left as it is:
        cancel it or replace the delegate first, then erase again.
      </p>
      {mayErase ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="erase" />
          <input type="hidden" name="email" value={report.email} />
          <div className="form__field">
            <label>
              <input type="checkbox" name="confirm" required /> Erase what may be erased about {report.email}; this cannot be undone
            </label>
          </div>
          <SubmitButton secondary>Erase</SubmitButton>
        </Form>
      ) : (
        <p>Erasure is a manager’s decision: ask a manager to erase.</p>
      )}
    </section>
  )
}

export default function DataRequests({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Personal data requests</h1>
      <p>
        Find everything held about a person by their e-mail address, to give them a copy or to erase it (POPIA). Each export and erasure is recorded in the
        audit log. Enquiries and training requests are anonymised anyway after {loaderData.retentionMonths} months.
      </p>
      {actionData?.error ? (
        <p className="admin-error" role="alert">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.erased ? (
        <div className="admin-notice" role="status">
          <p>
            Erased: {actionData.erased.enquiriesAnonymised} enquiries and training requests anonymised,{' '}
            {actionData.erased.waitingListEntriesAnonymised ? `${actionData.erased.waitingListEntriesAnonymised} waiting-list entries anonymised, ` : ''}
            {actionData.erased.emailsDeleted} e-mails deleted.
          </p>
          {actionData.erased.registrationsErased.length ? (
            <p>Erased from registrations, their tax invoices kept as issued: {actionData.erased.registrationsErased.map(erasedRegistrationText).join(', ')}.</p>
          ) : null}
          {actionData.erased.sponsorshipDealsErased.length ? (
            <p>
              Contact erased from sponsorship deals, their tax invoices to the company kept as issued: {actionData.erased.sponsorshipDealsErased.join(', ')}.
            </p>
          ) : null}
          {actionData.erased.registrationsActive.length ? (
            <p>
              Not erased, the event not yet started:{' '}
              {actionData.erased.registrationsActive.map((registration) => `${registration.reference} (${registration.event})`).join(', ')}. Cancel the
              registration or replace the delegate first, then erase again.
            </p>
          ) : null}
        </div>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="find" />
        <FieldRow id="data-email" label="E-mail address">
          <input id="data-email" name="email" type="email" autoComplete="off" required defaultValue={actionData?.report?.email ?? ''} />
        </FieldRow>
        <SubmitButton>Find</SubmitButton>
      </Form>
      {actionData?.report ? <Report report={actionData.report} mayErase={loaderData.mayErase} /> : null}
      <BackOfficeHomeLink />
    </>
  )
}
