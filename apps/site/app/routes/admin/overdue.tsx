import { AGE_BAND_LABELS, ageingByBand, ageingRows, overdueRegistrations, remindNow, type PaymentReminderKind } from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form, Link } from 'react-router'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AgeingTable } from '../../components/admin/AgeingTable'
import { AmountCell } from '../../components/admin/AmountCell'
import { SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/overdue'

export function meta() {
  return adminMeta('Overdue')
}

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  const overdue = await readBackOffice(args.context, (backOffice) => overdueRegistrations(backOffice))
  const ageing = ageingRows(ageingByBand(overdue))
  return data({ overdue: overdue.map((row) => ({ ...row, ageLabel: AGE_BAND_LABELS[row.ageBand] })), ageing }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const reminded = await runStaffCommand(args.context, session.user, remindNow, { reference: formText(form, 'reference') })
  if (!reminded.ok) return data({ notice: null, error: refusalSentence(reminded) }, { status: reminded.status })
  const { reference, outstandingCents, payer } = reminded.value
  const to = payer === 'sponsorship-deal' ? `the contact of sponsorship deal ${reference}` : `registration ${reference}`
  return { notice: `A payment reminder for ${formatRand(outstandingCents)} is on its way to ${to}.`, error: null }
}

const REMINDER_NAMES: Record<PaymentReminderKind, string> = {
  overdue: 'past due',
  'before-event': 'a week before the event',
  staff: 'by staff',
}

export default function Overdue({ loaderData, actionData }: Route.ComponentProps) {
  const { overdue, ageing } = loaderData
  return (
    <>
      <h1>Overdue</h1>
      <p>
        Registrations whose tax invoice is past its due date (the invoice date plus the payment terms) and not paid in full, most overdue first, and early-bird
        registrations not paid by the early-bird date: the terms say “register and pay by”, so decide what to do with each. Sponsorship deals whose tax invoice
        is past its due date are listed with them, their reminders going to the sponsor’s contact. Reminders go out by themselves once past the due date and a
        week before the event; “Remind now” sends one more.
      </p>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      {overdue.length === 0 ? (
        <p>Nothing is overdue.</p>
      ) : (
        <>
          <AgeingTable caption="What is overdue, by age from the first tax invoice" rows={ageing} />
          <AdminTable
            caption="Overdue registrations and sponsorship deals, most overdue first"
            scrollLabel="Overdue registrations and sponsorship deals"
            columns={[
              'Registration or deal',
              { label: 'Days overdue', numeric: true },
              'Age',
              { label: 'Amount owed', numeric: true },
              'Company and contact',
              'Reminders',
              { label: 'Action', hidden: true },
            ]}
          >
            {overdue.map((row) => (
              <tr key={row.reference}>
                <th scope="row">
                  {row.payer === 'sponsorship-deal' ? (
                    <>
                      <Link to={`/admin/sponsorship#deal-${row.dealId ?? ''}`}>{row.reference}</Link> (sponsorship)
                    </>
                  ) : (
                    <Link to={`/admin/registrations/${row.reference}`}>{row.reference}</Link>
                  )}
                  <br />
                  <span className="admin-table__detail">
                    {row.eventTitle}; {row.invoiceNumber}, due {row.dueOn}
                  </span>
                  {row.earlyBirdUnpaid ? (
                    <>
                      <br />
                      <strong>Early-bird not paid by {row.earlyBirdUntil}</strong>
                    </>
                  ) : null}
                </th>
                <td className="admin-number">{row.daysOverdue}</td>
                <td>{row.ageLabel}</td>
                <AmountCell cents={row.outstandingCents} />
                <td>
                  {row.companyName}
                  <br />
                  <span className="admin-table__detail">
                    <a href={`mailto:${row.contact.email}`}>{row.contact.email}</a>, {row.contact.tel}
                  </span>
                </td>
                <td>
                  {row.reminders.length === 0
                    ? 'None yet'
                    : row.reminders.map((reminder) => `${reminder.businessDay} (${REMINDER_NAMES[reminder.kind]})`).join(', ')}
                </td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="reference" value={row.reference} />
                    <SubmitButton secondary>Remind {row.reference} now</SubmitButton>
                  </Form>
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </>
  )
}
