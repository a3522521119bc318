import { roleAllows } from '@events/staff'
import {
  joiningMailsOf,
  joiningRecipientsOf,
  paymentRemindersOf,
  RESENDABLE_MAILS,
  resendJoiningMail,
  resendRegistrationMail,
  type ResendableMail,
} from '@events/core'
import { cardPaymentActivity } from '@events/payments'
import { formatRand } from '@events/pricing'
import { data, Form, Link, redirect } from 'react-router'
import { Amount } from '../../components/Amount'
import {
  auditActionName,
  auditDetailsText,
  formatAdminDay,
  outboxStatusName,
  paymentMethodName,
  paymentReminderText,
  registrationStandingName,
  statementLineName,
} from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, registrationOr404, runStaffCommand } from '../../lib/backoffice.server'
import { fromDatabase } from '../../lib/database.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/registration'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { TermList } from '../../components/TermList'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { SubmitButton } from '../../components/admin/FormControls'
import { MailTopic } from '../../components/admin/MailTopic'

export function meta({ params }: Route.MetaArgs) {
  return adminMeta(`Registration ${params.reference}`)
}

const RESENT_NOTICES: Record<ResendableMail, string> = {
  confirmation: 'The confirmation is queued to be sent again; its status is under E-mails.',
  receipt: 'The payment receipt is queued to be sent again; its status is under E-mails.',
}
/** What the change pages (payment, delegate, company) report when they send staff back here (`?recorded=`). */
const RECORDED_NOTICES: Record<string, string> = {
  payment: 'The bank transfer is recorded.',
  surplus: 'The bank transfer is recorded in full; it paid more than was owed, and the surplus is owed back to the registrant.',
  delegate: 'The delegate is changed; the new delegate’s confirmation is queued under E-mails.',
  company: 'The company details are corrected. To reissue the tax invoice to them, choose “Correct the invoice” on the company details page.',
  'invoice-corrected':
    'The tax invoice is corrected: a credit note cancels the old one and a new tax invoice names the corrected details; both are queued under E-mails.',
}

const JOINING_RESENT_NOTICE = 'The joining e-mail is queued to be sent again; its status is under E-mails.'

function noticeFor(searchParams: URLSearchParams): string | null {
  const resent = searchParams.get('resent')
  if (resent === 'joining') return JOINING_RESENT_NOTICE
  if ((RESENDABLE_MAILS as readonly string[]).includes(resent ?? '')) return RESENT_NOTICES[resent as ResendableMail]
  return RECORDED_NOTICES[searchParams.get('recorded') ?? ''] ?? null
}

/** The entries about this registration and its e-mails, for its audit trail. */
const AUDIT_TRAIL_LIMIT = 200

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const { staff, links, payments } = args.context.get(servicesContext)
  const detail = await registrationOr404(args.context, args.params.reference)
  // Card checkouts and payment notices are the payments package's records, read through it.
  const card = await fromDatabase(args.context, () => cardPaymentActivity(payments.db, detail.reference))
  const subjects = [
    { subjectType: 'registration', subjectId: detail.reference },
    ...detail.emails.map((email) => ({ subjectType: 'outbox-message', subjectId: email.id })),
  ]
  const audit = await fromDatabase(args.context, () => staff.listAudit({ subjects, pageSize: AUDIT_TRAIL_LIMIT }))
  const reminders = await readBackOffice(args.context, (backOffice) => paymentRemindersOf(backOffice, detail.reference))
  const joiningMails = await readBackOffice(args.context, (backOffice) => joiningMailsOf(backOffice, detail.reference))
  const joiningRecipients = await readBackOffice(args.context, (backOffice) => joiningRecipientsOf(backOffice, detail.reference))
  return data(
    {
      detail,
      card,
      reminders,
      joiningMails,
      joiningRecipients,
      // The screen offers what the role may do; the change pages check again.
      mayCorrectInvoice: roleAllows(user.role, 'manager'),
      statusUrl: links.registrationStatus(detail),
      notice: noticeFor(new URL(args.request.url).searchParams),
      auditTrail: audit.entries.map((entry) => ({
        id: entry.id,
        occurredAt: entry.occurredAt,
        actor: entry.actor?.email ?? null,
        action: auditActionName(entry.action),
        after: auditDetailsText(entry.after),
      })),
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const which = formText(form, 'mail')
  const resent =
    which === 'joining'
      ? await runStaffCommand(args.context, session.user, resendJoiningMail, { reference: args.params.reference, ordinal: formText(form, 'ordinal') })
      : await runStaffCommand(args.context, session.user, resendRegistrationMail, { reference: args.params.reference, mail: which })
  if (!resent.ok) return data({ error: Object.values(resent.fields)[0] ?? resent.message }, { status: resent.status })
  // Post/redirect/get: reloading the page shows the notice again instead of sending the e-mail once more.
  throw redirect(`/admin/registrations/${encodeURIComponent(args.params.reference)}?resent=${which}`)
}

export default function Registration({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, card, statusUrl, notice, auditTrail } = loaderData
  const { amounts, company, statement } = detail
  const pagePath = `/admin/registrations/${encodeURIComponent(detail.reference)}`
  return (
    <>
      <p>
        <Link to="/admin/registrations">All registrations</Link>
      </p>
      <h1>Registration {detail.reference}</h1>
      <AdminMessages notice={notice && !actionData ? notice : undefined} error={actionData?.error} />
      <TermList
        className="admin-facts"
        terms={[
          ['Event', `${detail.event.title} (${formatAdminDay(detail.event.start)})`],
          ['Status', registrationStandingName(detail)],
          ['Registered', <AdminTime key="registered" iso={detail.createdAt} />],
          ...(detail.paidAt ? [['Paid in full', <AdminTime key="paid" iso={detail.paidAt} />] as const] : []),
          ['Payment method', paymentMethodName(detail.paymentMethod)],
          ['Attendance', detail.attendanceOption.label],
          ['Code given', detail.code],
          [
            'Registrant’s own page',
            <a key="status-page" href={statusUrl}>
              {statusUrl}
            </a>,
          ],
        ]}
      />

      <section aria-labelledby="company-heading">
        <h2 id="company-heading">Company</h2>
        <TermList
          className="admin-facts"
          terms={[
            ['Name', company.name],
            [
              'Address',
              <span key="address" className="admin-address">
                {company.address}
              </span>,
            ],
            ['E-mail address', company.email],
            ['Telephone', company.tel],
            ['VAT number', company.vatNumber || 'Not registered for VAT'],
            ['Purchase order number', company.purchaseOrderNumber || 'None given'],
            [
              'Quotation',
              detail.quotationNumber ? (
                <Link key="quotation" to={`/admin/quotes?number=${encodeURIComponent(detail.quotationNumber)}`}>
                  {detail.quotationNumber}
                </Link>
              ) : (
                'None given'
              ),
            ],
          ]}
        />
        {loaderData.mayCorrectInvoice ? (
          <p>
            <Link to={`${pagePath}/company`}>Correct the company details</Link>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="delegates-heading">
        <h2 id="delegates-heading">Delegates ({detail.delegates.length})</h2>
        <AdminTable
          caption={`Delegates of registration ${detail.reference}`}
          scrollLabel="Delegates"
          columns={['Name', 'Position', 'E-mail address', 'Attending', { label: 'Change', hidden: true }]}
        >
          {detail.delegates.map((delegate, index) => (
            <tr key={index}>
              <th scope="row">{delegate.name}</th>
              <td>{delegate.position}</td>
              <td>{delegate.email}</td>
              <td>{delegate.cancelled ? <strong>Cancelled</strong> : delegate.attendance === 'online' ? 'Online' : 'At the venue'}</td>
              <td>
                {/* A cancelled delegate is not replaced: their place was credited. */}
                {delegate.cancelled ? null : (
                  <Link to={`${pagePath}/delegates/${index + 1}`}>
                    Change<span className="visually-hidden"> {delegate.name}</span>
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>

      <section aria-labelledby="amounts-heading">
        <h2 id="amounts-heading">Amounts</h2>
        <TermList
          className="admin-facts"
          terms={[
            ['Price per delegate (excl. VAT)', <Amount key="unit" cents={amounts.unitAmountCents} />],
            ...(detail.discount
              ? [
                  [
                    detail.discount.complimentary ? 'Sponsor’s complimentary seat' : 'Discount code',
                    `${detail.discount.description}: ${formatRand(-detail.discount.discountCents)} excl. VAT`,
                  ] as [string, string],
                ]
              : []),
            ['Subtotal (excl. VAT)', <Amount key="subtotal" cents={amounts.subtotalCents} />],
            [`VAT (${Math.round(amounts.vatRate * 100)}%)`, <Amount key="vat" cents={amounts.vatCents} />],
            ['Total (incl. VAT)', <Amount key="total" cents={amounts.totalCents} />],
          ]}
        />
        <h3>Statement</h3>
        <AdminTable
          caption={`Statement of registration ${detail.reference}: invoices, credit notes, payments and refunds, oldest first; charges add to what is owed, credits and payments take off`}
          scrollLabel="Statement"
          columns={['Date', 'What', { label: 'Amount (incl. VAT)', numeric: true }]}
          footer={
            <tr>
              <th scope="row" colSpan={2}>
                {statement.owedToRegistrantCents > 0 ? 'Owed back to the registrant' : 'Outstanding'}
              </th>
              <AmountCell cents={statement.owedToRegistrantCents > 0 ? statement.owedToRegistrantCents : statement.outstandingCents} />
            </tr>
          }
        >
          {statement.lines.map((line, index) => (
            <tr key={index}>
              <td>{formatAdminDay(line.on)}</td>
              <th scope="row">{statementLineName(line)}</th>
              <AmountCell cents={line.amountCents} />
            </tr>
          ))}
        </AdminTable>
        <h3>Tax invoice</h3>
        {detail.invoice ? (
          <p>
            {detail.invoice.number}, issued <AdminTime iso={detail.invoice.issuedAt} precision="day" />.{' '}
            <a href={`/admin/registrations/${detail.reference}/invoice.pdf`} download>
              Download tax invoice {detail.invoice.number} (PDF)
            </a>
          </p>
        ) : (
          <p>No tax invoice was issued.</p>
        )}
        {detail.invoices.map((invoice) =>
          invoice.replacedBy ? (
            <p key={invoice.number}>
              {invoice.number}, issued <AdminTime iso={invoice.issuedAt} precision="day" />: replaced by {invoice.replacedBy.number} on{' '}
              <AdminTime iso={invoice.replacedBy.issuedAt} precision="day" />.{' '}
              <a href={`/admin/registrations/${detail.reference}/invoices/${invoice.number}.pdf`} download>
                Download tax invoice {invoice.number} (PDF)
              </a>
            </p>
          ) : null,
        )}
        <h3>Payment reminders</h3>
        {loaderData.reminders.length === 0 ? (
          <p>No payment reminder was sent.</p>
        ) : (
          <ul>
            {loaderData.reminders.map((reminder, index) => (
              <li key={index}>{paymentReminderText(reminder)}</li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="card-heading">
        <h2 id="card-heading">Card payments</h2>
        {card.checkouts.length === 0 ? (
          <p>No card checkout was started.</p>
        ) : (
          <AdminTable
            caption="Checkouts"
            captionShown
            scrollLabel="Card checkouts"
            columns={['Attempt', 'Started', 'Provider', { label: 'Amount', numeric: true }, 'Status', 'Payment id']}
          >
            {card.checkouts.map((checkout) => (
              <tr key={checkout.id}>
                <th scope="row">{checkout.attempt}</th>
                <td>
                  <AdminTime iso={checkout.createdAt} />
                </td>
                <td>{checkout.provider}</td>
                <AmountCell cents={checkout.amountCents} />
                <td>{checkout.status}</td>
                <td>{checkout.paymentId ?? '—'}</td>
              </tr>
            ))}
          </AdminTable>
        )}
        {card.webhooks.length === 0 ? (
          <p>No payment notice (webhook) was received.</p>
        ) : (
          <AdminTable
            caption="Payment notices received (webhooks)"
            captionShown
            scrollLabel="Payment notices received"
            columns={['Received', 'Event', { label: 'Amount', numeric: true }, 'Outcome']}
          >
            {card.webhooks.map((webhook) => (
              <tr key={webhook.webhookId}>
                <th scope="row">
                  <AdminTime iso={webhook.receivedAt} />
                </th>
                <td>{webhook.eventType}</td>
                <td className="admin-number">{webhook.amountCents === null ? '—' : <Amount cents={webhook.amountCents} />}</td>
                <td>{webhook.outcome}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>

      <section aria-labelledby="bank-heading">
        <h2 id="bank-heading">Bank transfers</h2>
        {amounts.outstandingCents > 0 ? (
          <p>
            <Link to={`${pagePath}/payments/new`}>Record a bank transfer</Link>
          </p>
        ) : null}
        {detail.bankPayments.length === 0 ? (
          <p>No bank transfer is recorded.</p>
        ) : (
          <AdminTable
            caption={`Bank transfers recorded for registration ${detail.reference}`}
            scrollLabel="Bank transfers recorded"
            columns={['Received on', { label: 'Amount', numeric: true }, 'Bank reference', 'Note', 'Recorded by']}
          >
            {detail.bankPayments.map((payment) => (
              <tr key={payment.id}>
                <th scope="row">{payment.receivedOn}</th>
                <AmountCell cents={payment.amountCents} />
                <td>{payment.bankReference}</td>
                <td>{payment.note}</td>
                <td>
                  {payment.recordedBy.name}, <AdminTime iso={payment.recordedAt} />
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>

      {detail.surplusRefunds.length > 0 ? (
        <section aria-labelledby="surplus-heading">
          <h2 id="surplus-heading">Paid beyond what was owed</h2>
          <p>
            What transfers paid beyond the registration’s amount is owed back to the registrant. <Link to="/admin/refunds">Refunds to pay out</Link>
          </p>
          <ul>
            {detail.surplusRefunds.map((surplus, index) => (
              <li key={index}>
                {formatRand(surplus.amountCents)}:{' '}
                {surplus.status === 'paid-out'
                  ? `paid back on ${surplus.paidOutOn} (${surplus.bankReference})`
                  : 'owed to the registrant, waiting to be paid out'}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="emails-heading">
        <h2 id="emails-heading">E-mails</h2>
        <p>A sent e-mail is listed as it was sent: its recipients, subject and attachments were recorded then.</p>
        <AdminTable
          caption={`E-mails about registration ${detail.reference}, oldest first, with where each is in the outbox`}
          scrollLabel="E-mails about this registration"
          columns={['E-mail', 'To', 'Attachments', 'Queued', 'Status', { label: 'Attempts', numeric: true }]}
        >
          {detail.emails.map((email) => (
            <tr key={email.id}>
              <th scope="row">
                {email.record === 'unrecorded' ? (
                  <MailTopic topic={email.topic} subject="Sent before what was sent was recorded" />
                ) : (
                  <MailTopic topic={email.topic} subject={email.subject} />
                )}
              </th>
              <td>{email.record === 'unrecorded' ? 'Not recorded' : email.to.join(', ')}</td>
              <td>{email.attachments.length === 0 ? '—' : email.attachments.join(', ')}</td>
              <td>
                <AdminTime iso={email.createdAt} />
              </td>
              <td>
                {outboxStatusName(email.status)}
                {email.sentAt ? (
                  <>
                    {' '}
                    <AdminTime iso={email.sentAt} />
                  </>
                ) : null}
                {email.lastError ? (
                  <>
                    <br />
                    <span className="admin-quiet">{email.lastError}</span>
                  </>
                ) : null}
              </td>
              <td className="admin-number">{email.attempts}</td>
            </tr>
          ))}
        </AdminTable>
        {/* A cancelled registration has no confirmation to send again: the credit note went with the cancellation. */}
        {detail.cancelledAt === null ? (
          <Form method="post" className="admin-inline-form">
            <input type="hidden" name="mail" value="confirmation" />
            <SubmitButton>Resend confirmation</SubmitButton>
          </Form>
        ) : null}{' '}
        {detail.status === 'paid' ? (
          <Form method="post" className="admin-inline-form">
            <input type="hidden" name="mail" value="receipt" />
            <SubmitButton secondary>Resend receipt</SubmitButton>
          </Form>
        ) : null}
        <h3>Joining e-mails</h3>
        <p>
          Each delegate gets their joining e-mail (the venue and their pass, or their personal join link) days before the event and on the day before each event
          day.
        </p>
        {loaderData.joiningMails.length === 0 ? (
          <p>No joining e-mail was sent yet.</p>
        ) : (
          <ul>
            {loaderData.joiningMails.map((mail) => (
              <li key={`${mail.ordinal}-${mail.moment}`}>
                {mail.delegateName}: {mail.moment === 'before-event' ? 'before the event' : `the day before ${formatAdminDay(mail.moment)}`}, sent on{' '}
                {formatAdminDay(mail.businessDay)}
              </li>
            ))}
          </ul>
        )}
        {loaderData.joiningRecipients.map((delegate) => (
          <Form key={delegate.ordinal} method="post" className="admin-inline-form">
            <input type="hidden" name="mail" value="joining" />
            <input type="hidden" name="ordinal" value={delegate.ordinal} />
            <SubmitButton secondary>Resend joining e-mail to {delegate.name}</SubmitButton>
          </Form>
        ))}
      </section>

      <section aria-labelledby="cancellation-heading">
        <h2 id="cancellation-heading">Cancellation</h2>
        <p>
          <Link to={`${pagePath}/cancel`}>
            {loaderData.mayCorrectInvoice
              ? 'Cancel the registration or some of its delegates, with credit notes and refunds'
              : 'Ask for a cancellation of the registration or some of its delegates, which a manager approves'}
          </Link>
        </p>
      </section>

      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading">Audit trail</h2>
        {auditTrail.length === 0 ? (
          <p>No one in the back office has changed or sent anything for this registration.</p>
        ) : (
          <AdminTable
            caption={`What staff did about registration ${detail.reference}, newest first`}
            scrollLabel="Audit trail"
            columns={['When', 'Who', 'What', 'Details']}
          >
            {auditTrail.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">
                  <AdminTime iso={entry.occurredAt} />
                </th>
                <td>{entry.actor ?? 'nobody signed in'}</td>
                <td>{entry.action}</td>
                <td>{entry.after}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </>
  )
}
