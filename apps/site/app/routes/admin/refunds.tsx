import { recordRefundPayout, refundsPaidOut, refundsToPay, saveRefundBankDetails, type RefundToPay } from '@events/core'
import { formatRand } from '@events/pricing'
import { roleAllows } from '@events/staff'
import { data, Form, Link } from 'react-router'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { AdminTable } from '../../components/admin/AdminTable'
import { AdminTime } from '../../components/admin/AdminTime'
import { AmountCell } from '../../components/admin/AmountCell'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { businessToday, readBackOffice, refusalSentence, runStaffCommand } from '../../lib/backoffice.server'
import type { Route } from './+types/refunds'

export function meta() {
  return adminMeta('Refunds to pay out')
}

const PAID_OUT_SHOWN = 20

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const [owed, paidOut] = await readBackOffice(args.context, (backOffice) => Promise.all([refundsToPay(backOffice), refundsPaidOut(backOffice)]))
  return data(
    { owed, paidOut: paidOut.slice(0, PAID_OUT_SHOWN), today: businessToday(args.context), mayRecordPayout: roleAllows(user.role, 'manager') },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { context } = args
  const intent = formText(form, 'intent')
  if (intent === 'bank-details') {
    const saved = await runStaffCommand(context, session.user, saveRefundBankDetails, {
      reference: formText(form, 'reference'),
      accountHolder: formText(form, 'accountHolder'),
      bankName: formText(form, 'bankName'),
      branchCode: formText(form, 'branchCode'),
      accountNumber: formText(form, 'accountNumber'),
    })
    if (!saved.ok) return data({ notice: null, error: refusalSentence(saved) }, { status: saved.status })
    return { notice: `The account of registration ${formText(form, 'reference')} is kept for its refunds.`, error: null }
  }
  if (intent === 'paid-out') {
    const paid = await runStaffCommand(context, session.user, recordRefundPayout, {
      refundId: formText(form, 'refund'),
      paidOutOn: formText(form, 'paidOutOn'),
      bankReference: formText(form, 'bankReference'),
    })
    if (!paid.ok) return data({ notice: null, error: refusalSentence(paid) }, { status: paid.status })
    return { notice: `The refund of ${formatRand(paid.value.amountCents)} to registration ${paid.value.reference} is recorded as paid out.`, error: null }
  }
  return data({ notice: null, error: 'This form does not say what to do. Reload the page and try again.' }, { status: 400 })
}

function AccountForm({ refund }: { refund: RefundToPay }) {
  const id = (field: string) => `${field}-${refund.id}`
  const details = refund.bankDetails
  return (
    <Form method="post" className="form admin-assign">
      <input type="hidden" name="intent" value="bank-details" />
      <input type="hidden" name="reference" value={refund.registrationReference} />
      <fieldset className="form__group">
        <legend>Account to pay for {refund.registrationReference}</legend>
        <FieldRow id={id('holder')} label="Account holder">
          <input id={id('holder')} name="accountHolder" defaultValue={details?.accountHolder} required maxLength={100} autoComplete="off" />
        </FieldRow>
        <FieldRow id={id('bank')} label="Bank">
          <input id={id('bank')} name="bankName" defaultValue={details?.bankName} required maxLength={60} autoComplete="off" />
        </FieldRow>
        <FieldRow id={id('branch')} label="Branch code">
          <input id={id('branch')} name="branchCode" defaultValue={details?.branchCode} required inputMode="numeric" maxLength={10} autoComplete="off" />
        </FieldRow>
        <FieldRow id={id('account')} label="Account number">
          <input id={id('account')} name="accountNumber" defaultValue={details?.accountNumber} required inputMode="numeric" maxLength={24} autoComplete="off" />
        </FieldRow>
      </fieldset>
      <SubmitButton secondary>Keep this account</SubmitButton>
    </Form>
  )
}

function PaidOutForm({ refund, today }: { refund: RefundToPay; today: string }) {
  const id = (field: string) => `${field}-${refund.id}`
  return (
    <Form method="post" className="form admin-assign">
      <input type="hidden" name="intent" value="paid-out" />
      <input type="hidden" name="refund" value={refund.id} />
      <fieldset className="form__group">
        <legend>
          Paid out: {formatRand(refund.amountCents)} to {refund.registrationReference}
        </legend>
        <FieldRow id={id('paid-on')} label="Paid out on">
          <input id={id('paid-on')} name="paidOutOn" type="date" defaultValue={today} max={today} required />
        </FieldRow>
        <FieldRow id={id('reference')} label="Bank reference of the payment">
          <input id={id('reference')} name="bankReference" required maxLength={100} autoComplete="off" />
        </FieldRow>
      </fieldset>
      <SubmitButton>Record as paid out</SubmitButton>
    </Form>
  )
}

/** Whose refund it is: the registration's reference, or the sponsorship deal's, each linking to its page. */
function RefundOwner({ refund }: { refund: { registrationReference: string; dealId?: string | undefined } }) {
  return refund.dealId ? (
    <>
      <Link to={`/admin/sponsorship#deal-${refund.dealId}`}>{refund.registrationReference}</Link> (sponsorship)
    </>
  ) : (
    <Link to={`/admin/registrations/${refund.registrationReference}`}>{refund.registrationReference}</Link>
  )
}

export default function Refunds({ loaderData, actionData }: Route.ComponentProps) {
  const { owed, paidOut, today, mayRecordPayout } = loaderData
  const withAccount = owed.filter((refund) => refund.bankDetails).length
  return (
    <>
      <h1>Refunds to pay out</h1>
      <p>
        Every refund owed by bank transfer: cancellation credits (and card refunds the card provider refused) and what transfers paid beyond what was owed, a
        registration’s or a sponsorship deal’s invoice. Keep the account each is paid into, pay them from the bank, then record each as paid out with the date
        and the bank’s reference.
        {mayRecordPayout ? null : ' Refunds are a manager’s to approve: a manager or an owner records them as paid out.'}
      </p>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      <section aria-labelledby="owed-heading">
        <h2 id="owed-heading">Owed</h2>
        {owed.length === 0 ? (
          <p>No refund is waiting to be paid out.</p>
        ) : (
          <>
            <p>
              {withAccount > 0 ? (
                <a href="/admin/refunds.csv">
                  Download the {withAccount === 1 ? 'refund' : `${withAccount} refunds`} with an account as CSV, for the bank’s bulk payment
                </a>
              ) : (
                'Keep the account of a refund below to export it for the bank’s bulk payment.'
              )}
            </p>
            <AdminTable
              caption="Refunds owed by bank transfer, oldest first"
              scrollLabelledBy="owed-heading"
              columns={['Registration or deal', { label: 'Amount', numeric: true }, 'Why', 'Owed since', 'Account to pay']}
            >
              {owed.map((refund) => (
                <tr key={refund.id}>
                  <th scope="row">
                    <RefundOwner refund={refund} />
                    <br />
                    <span className="admin-table__detail">
                      {refund.companyName}, {refund.email}
                    </span>
                  </th>
                  <AmountCell cents={refund.amountCents} />
                  <td>{refund.reason}</td>
                  <td>
                    <AdminTime iso={refund.owedSince} precision="day" />
                  </td>
                  <td>
                    {refund.bankDetails
                      ? `${refund.bankDetails.accountHolder}, ${refund.bankDetails.bankName}, branch ${refund.bankDetails.branchCode}, account ${refund.bankDetails.accountNumber}`
                      : 'None yet'}
                  </td>
                </tr>
              ))}
            </AdminTable>
            {owed.map((refund) => (
              <article className="admin-settle" key={refund.id} aria-label={`Refund of ${formatRand(refund.amountCents)} to ${refund.registrationReference}`}>
                <h3>
                  {formatRand(refund.amountCents)} to {refund.registrationReference} ({refund.companyName})
                </h3>
                <AccountForm refund={refund} />
                {mayRecordPayout ? <PaidOutForm refund={refund} today={today} /> : null}
              </article>
            ))}
          </>
        )}
      </section>
      {paidOut.length > 0 ? (
        <section aria-labelledby="paid-heading">
          <h2 id="paid-heading">Paid out</h2>
          <AdminTable
            caption="Refunds paid out, latest first"
            scrollLabelledBy="paid-heading"
            columns={['Registration or deal', { label: 'Amount', numeric: true }, 'Why', 'Paid out on', 'Bank reference']}
          >
            {paidOut.map((refund) => (
              <tr key={refund.id}>
                <th scope="row">
                  <RefundOwner refund={refund} />
                </th>
                <AmountCell cents={refund.amountCents} />
                <td>{refund.reason}</td>
                <td>{refund.paidOutOn}</td>
                <td>{refund.bankReference}</td>
              </tr>
            ))}
          </AdminTable>
        </section>
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}
