import {
  cancellationProposal,
  cancellationRequests,
  cancelRegistration,
  decideCancellationRequest,
  isBackOfficeError,
  recordRefundPaidOut,
  requestCancellation,
  type CancellationOutcome as CoreCancellationOutcome,
  type CancellationRequest,
  type CancellationSummary,
} from '@events/core'
import { roleAllows, staffAuditWriter } from '@events/staff'
import { PaymentError, refundCard } from '@events/payments'
import { formatRand } from '@events/pricing'
import { data, Form } from 'react-router'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { runStaffCommand, staffActor } from '../../lib/backoffice.server'
import { backOfficeRefusal, roleRefusal } from '../../lib/refusals'
import { fromDatabase } from '../../lib/database.server'
import { requestFactsContext, servicesContext } from '../../lib/services.server'
import { FieldRow, SubmitButton } from '../../components/admin/FormControls'
import type { Route } from './+types/registration-cancel'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { BackOfficeHomeLink } from '../../components/admin/BackOfficeHomeLink'

export function meta({ params }: Route.MetaArgs) {
  return adminMeta(`Cancel registration ${params.reference}`)
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Johannesburg', weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' })

/** A count of days in words: "1 working day", "9 calendar days", "3 days". */
function daysText(count: number, kind?: 'working' | 'calendar'): string {
  return `${count} ${kind ? `${kind} ` : ''}${count === 1 ? 'day' : 'days'}`
}

/** A Johannesburg day (YYYY-MM-DD) as staff read it: "Fri, 20 June 2025". */
function showDay(day: string): string {
  return dayFormat.format(new Date(`${day}T12:00:00+02:00`))
}

export async function loader(args: Route.LoaderArgs) {
  const { user, headers } = await requireStaffMember(args)
  const services = args.context.get(servicesContext)
  const [proposal, requests] = await fromDatabase(args.context, () =>
    Promise.all([
      cancellationProposal(services.core.backOffice, args.params.reference),
      cancellationRequests(services.core.backOffice, args.params.reference),
    ]).catch((error: unknown) => {
      if (isBackOfficeError(error) && error.code === 'not-found') throw data(backOfficeRefusal(error).message, { status: 404, headers })
      throw error
    }),
  )
  // The terms' "management approval": staff ask, managers (and owners) cancel, waive fees, refund and approve.
  return data({ ...proposal, requests, mayDecide: roleAllows(user.role, 'manager') }, { headers })
}

/** The intents only a manager or an owner may post; staff get 403 whatever the screen showed them. */
const MANAGER_INTENTS = new Set(['cancel', 'approve', 'decline', 'retry-refund', 'refund-paid-out'])

type CancelAnswer = { notice: string | null; error: string | null; fields?: Record<string, string> }

const REFUND_OUTCOMES: Record<string, string> = { succeeded: 'made', refused: 'refused', pending: 'not answered yet; try again in a few minutes' }
const refundOutcome = (amountCents: number, status: string) => `Card refund of ${formatRand(amountCents)}: ${REFUND_OUTCOMES[status] ?? status}.`

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user } = session
  const { context, params } = args
  const services = context.get(servicesContext)
  const { log } = context.get(requestFactsContext)
  const intent = formText(form, 'intent')
  const refused = (refusal: { status: number; message: string; fields: Record<string, string> }) =>
    data<CancelAnswer>({ notice: null, error: Object.values(refusal.fields)[0] ?? refusal.message, fields: refusal.fields }, { status: refusal.status })
  // The screen offers staff only the request; a post of a manager's intent is refused here, and again by core's command.
  if (MANAGER_INTENTS.has(intent) && !roleAllows(user.role, 'manager')) return refused({ ...roleRefusal('manager'), fields: {} })
  // A card refund goes to the provider after the cancellation committed; its answer is kept with the member's audit row.
  const requestCardRefund = (refundId: string) =>
    fromDatabase(context, () => refundCard(services.payments, refundId, { actor: staffActor(context, user), audit: staffAuditWriter })).catch(
      (error: unknown) => {
        if (error instanceof PaymentError) throw data<CancelAnswer>({ notice: null, error: error.message }, { status: 404 })
        throw error
      },
    )
  /** The notice after a cancellation, whoever made it: its fee, the credit note on its way and the card refund's answer. */
  const afterCancellation = async ({ cancellation, cardRefundPending, reference }: CoreCancellationOutcome): Promise<string> => {
    let refundNotice = ''
    if (cardRefundPending && cancellation.refund) {
      const refunded = await requestCardRefund(cancellation.refund.id)
      log.info({ reference, refundStatus: refunded.after.status }, 'Back office: card refund after a cancellation')
      refundNotice = ` ${refundOutcome(refunded.amountCents, refunded.after.status)}`
    }
    const credited = cancellation.creditNote
      ? ` Credit note ${cancellation.creditNote.number} for ${formatRand(cancellation.creditedTotalCents)} is on its way to the registrant.`
      : ''
    return `Cancelled with a ${cancellation.feePercent}% fee.${credited}${refundNotice}`
  }

  if (intent === 'cancel' || intent === 'request') {
    const input = {
      reference: params.reference,
      delegateIds: formText(form, 'scope') === 'delegates' ? form.getAll('delegateId').map(String) : 'all',
      feePercent: formText(form, 'feePercent'),
      overrideReason: formText(form, 'overrideReason'),
    }
    if (intent === 'request') {
      const requested = await runStaffCommand(context, user, requestCancellation, input)
      if (!requested.ok) return refused(requested)
      return { notice: 'Your cancellation request is waiting for a manager’s approval.', error: null } satisfies CancelAnswer
    }
    const cancelled = await runStaffCommand(context, user, cancelRegistration, input)
    if (!cancelled.ok) return refused(cancelled)
    return { notice: await afterCancellation(cancelled.value), error: null } satisfies CancelAnswer
  }
  if (intent === 'approve' || intent === 'decline') {
    const decided = await runStaffCommand(context, user, decideCancellationRequest, {
      reference: params.reference,
      requestId: formText(form, 'requestId'),
      decision: intent,
    })
    if (!decided.ok) return refused(decided)
    const { request, outcome } = decided.value
    if (!outcome) return { notice: `The cancellation ${request.requestedBy.name} asked for is declined.`, error: null } satisfies CancelAnswer
    return { notice: `Approved. ${await afterCancellation(outcome)}`, error: null } satisfies CancelAnswer
  }
  if (intent === 'retry-refund') {
    const refunded = await requestCardRefund(formText(form, 'refundId'))
    return { notice: refundOutcome(refunded.amountCents, refunded.after.status), error: null } satisfies CancelAnswer
  }
  if (intent === 'refund-paid-out') {
    const recorded = await runStaffCommand(context, user, recordRefundPaidOut, {
      reference: params.reference,
      refundId: formText(form, 'refundId'),
      paidOutOn: formText(form, 'paidOutOn'),
      bankReference: formText(form, 'bankReference'),
    })
    if (!recorded.ok) return refused(recorded)
    const { after } = recorded.value
    return {
      notice: `Refund of ${formatRand(after.amountCents)} recorded as paid out on ${showDay(after.paidOutOn ?? '')}.`,
      error: null,
    } satisfies CancelAnswer
  }
  return data<CancelAnswer>({ notice: null, error: 'Choose what to do on this page.' }, { status: 400 })
}

const REFUND_STATUS = {
  pending: 'waiting for the card provider',
  succeeded: 'refunded to the card',
  refused: 'refused by the card provider',
  'awaiting-payout': 'to be paid out by bank transfer',
  'paid-out': 'paid out by bank transfer',
} as const

function CancellationOutcome({
  cancellation,
  reference,
  today,
  mayRefund,
}: {
  cancellation: CancellationSummary
  reference: string
  today: string
  mayRefund: boolean
}) {
  const { refund, creditNote } = cancellation
  return (
    <article aria-labelledby={`cancellation-${cancellation.id}`}>
      <h3 id={`cancellation-${cancellation.id}`}>
        {cancellation.wholeRegistration ? 'Whole registration' : 'Delegates'} cancelled on {showDay(cancellation.cancelledOn)} by{' '}
        {cancellation.cancelledBy.name}
      </h3>
      <dl>
        <dt>Delegates</dt>
        <dd>{cancellation.delegates.join(', ')}</dd>
        <dt>Fee</dt>
        <dd>
          {cancellation.feePercent}% of {formatRand(cancellation.cancelledSubtotalCents)}: {formatRand(cancellation.feeSubtotalCents)} excl. VAT
          {cancellation.feePercent !== cancellation.proposedFeePercent
            ? ` (the terms proposed ${cancellation.proposedFeePercent}%; reason: ${cancellation.overrideReason})`
            : ` (${daysText(cancellation.workingDaysBefore, 'working')} before the event)`}
        </dd>
        <dt>Credited</dt>
        <dd>
          {formatRand(cancellation.creditedSubtotalCents)} excl. VAT + {formatRand(cancellation.creditedVatCents)} VAT ={' '}
          {formatRand(cancellation.creditedTotalCents)}
        </dd>
        <dt>Credit note</dt>
        <dd>
          {creditNote ? (
            <a href={`/admin/registrations/${reference}/credit-notes/${creditNote.number}.pdf`} download>
              Download credit note {creditNote.number} (PDF)
            </a>
          ) : (
            'None: nothing is credited.'
          )}
        </dd>
        <dt>Refund</dt>
        <dd>
          {refund
            ? `${formatRand(refund.amountCents)}, ${REFUND_STATUS[refund.status]}${refund.paidOutOn ? ` on ${showDay(refund.paidOutOn)} (bank reference ${refund.bankReference})` : ''}${refund.outcomeMessage ? `: ${refund.outcomeMessage}` : ''}`
            : 'None: nothing was paid beyond what is still owed.'}
        </dd>
      </dl>
      {mayRefund && refund && refund.method === 'card' && (refund.status === 'pending' || refund.status === 'refused') ? (
        <Form method="post">
          <input type="hidden" name="intent" value="retry-refund" />
          <input type="hidden" name="refundId" value={refund.id} />
          <SubmitButton secondary>Try the card refund again</SubmitButton>
        </Form>
      ) : null}
      {mayRefund && refund && (refund.status === 'awaiting-payout' || refund.status === 'refused') ? (
        <Form method="post" className="form" aria-label={`Record the refund of ${formatRand(refund.amountCents)} as paid out`}>
          <input type="hidden" name="intent" value="refund-paid-out" />
          <input type="hidden" name="refundId" value={refund.id} />
          <p>Once the bank transfer of {formatRand(refund.amountCents)} has left the account, record it here.</p>
          <FieldRow id={`paid-out-on-${refund.id}`} label="Date paid out">
            <input id={`paid-out-on-${refund.id}`} name="paidOutOn" type="date" max={today} required />
          </FieldRow>
          <FieldRow id={`bank-reference-${refund.id}`} label="Bank reference of the payout">
            <input id={`bank-reference-${refund.id}`} name="bankReference" autoComplete="off" required />
          </FieldRow>
          <SubmitButton>Record refund paid out</SubmitButton>
        </Form>
      ) : null}
    </article>
  )
}

export default function RegistrationCancel({ loaderData, actionData }: Route.ComponentProps) {
  const registration = loaderData
  const { fee } = registration
  const attending = registration.delegates.filter((delegate) => delegate.cancellationId === null)
  const pending = registration.requests.filter((request) => request.status === 'pending')
  return (
    <>
      <h1>Cancel registration {registration.reference}</h1>
      <AdminMessages notice={actionData?.notice} error={actionData?.error} />
      <dl>
        <dt>Company</dt>
        <dd>{registration.companyName}</dd>
        <dt>Event</dt>
        <dd>
          {registration.eventTitle}, starting {showDay(fee.eventDay)}
        </dd>
        <dt>Option</dt>
        <dd>{registration.optionLabel}</dd>
        <dt>Tax invoice</dt>
        <dd>{registration.invoiceNumber ?? 'None'}</dd>
        <dt>Paid</dt>
        <dd>{formatRand(registration.paidCents)}</dd>
        <dt>Owed after earlier cancellations</dt>
        <dd>{formatRand(registration.owedCents)}</dd>
      </dl>

      <section aria-labelledby="fee-heading">
        <h2 id="fee-heading">The fee the terms propose: {fee.feePercent}%</h2>
        <p>
          {fee.calendarDaysBefore < 0 ? (
            <>
              Today, {showDay(fee.cancelledOn)}, is {daysText(-fee.calendarDaysBefore)} after the event began on {showDay(fee.eventDay)}: the whole fee applies.
            </>
          ) : (
            <>
              Today, {showDay(fee.cancelledOn)}, is {daysText(fee.workingDaysBefore, 'working')} ({daysText(fee.calendarDaysBefore, 'calendar')}) before the
              event on {showDay(fee.eventDay)}. Weekends and South African public holidays are not working days.
            </>
          )}
        </p>
        <ul>
          <li>No fee before {showDay(fee.halfFeeFrom)}.</li>
          <li>50% from {showDay(fee.halfFeeFrom)}, the 14th working day before the event.</li>
          <li>100% from {showDay(fee.fullFeeFrom)}, 7 calendar days before the event.</li>
        </ul>
        {fee.holidaysSkipped.length > 0 ? (
          <p>Public holidays before the event, not counted: {fee.holidaysSkipped.map((holiday) => `${holiday.name} (${showDay(holiday.date)})`).join('; ')}.</p>
        ) : null}
        <p>The fee is a percentage of the cancelled amount excl. VAT; the rest is credited on a credit note against the tax invoice.</p>
      </section>

      {pending.length > 0 ? (
        <section aria-labelledby="requests-heading">
          <h2 id="requests-heading">Waiting for a manager’s approval</h2>
          {pending.map((request) => (
            <PendingRequest key={request.id} request={request} delegates={registration.delegates} mayDecide={registration.mayDecide} />
          ))}
        </section>
      ) : null}

      {attending.length > 0 && (registration.mayDecide || pending.length === 0) ? (
        <section aria-labelledby="cancel-heading">
          <h2 id="cancel-heading">{registration.mayDecide ? 'Cancel' : 'Ask for a cancellation'}</h2>
          {registration.mayDecide ? null : <p>A manager approves the cancellation, its fee and any refund; you are told on this page.</p>}
          <Form method="post" className="form">
            <input type="hidden" name="intent" value={registration.mayDecide ? 'cancel' : 'request'} />
            <fieldset className="form__group">
              <legend>What to cancel</legend>
              <div className="form__choice">
                <input type="radio" id="scope-all" name="scope" value="all" defaultChecked />
                <label htmlFor="scope-all">The whole registration ({attending.length === 1 ? '1 delegate' : `${attending.length} delegates`})</label>
              </div>
              {registration.pricedAsTable ? (
                <p>A table is priced as a whole, so it is cancelled as a whole.</p>
              ) : (
                <>
                  <div className="form__choice">
                    <input type="radio" id="scope-delegates" name="scope" value="delegates" />
                    <label htmlFor="scope-delegates">Only the delegates ticked below (each at their own price excl. VAT)</label>
                  </div>
                  {attending.map((delegate) => (
                    <div className="form__choice" key={delegate.id}>
                      <input type="checkbox" id={`delegate-${delegate.id}`} name="delegateId" value={delegate.id} />
                      <label htmlFor={`delegate-${delegate.id}`}>
                        {delegate.name}, {delegate.position} ({delegate.attendance === 'online' ? 'online' : 'at the venue'},{' '}
                        {formatRand(delegate.unitAmountCents)})
                      </label>
                    </div>
                  ))}
                </>
              )}
            </fieldset>
            <FieldRow id="fee-percent" label="Fee, % of the cancelled amount excl. VAT">
              <input
                id="fee-percent"
                name="feePercent"
                type="number"
                min={0}
                max={100}
                step={1}
                defaultValue={fee.feePercent}
                required
                aria-describedby="fee-percent-hint"
              />
              <p id="fee-percent-hint">The terms propose {fee.feePercent}%. Another fee needs a reason (“unless agreed”).</p>
            </FieldRow>
            <FieldRow id="override-reason" label="Reason for another fee">
              <textarea id="override-reason" name="overrideReason" rows={2} maxLength={500} />
            </FieldRow>
            <SubmitButton>{registration.mayDecide ? 'Confirm cancellation' : 'Ask a manager to cancel'}</SubmitButton>
          </Form>
        </section>
      ) : attending.length === 0 ? (
        <p className="admin-notice">Every delegate of this registration is cancelled.</p>
      ) : null}

      {registration.cancellations.length > 0 ? (
        <section aria-labelledby="outcome-heading">
          <h2 id="outcome-heading">Cancellations</h2>
          {registration.cancellations.map((cancellation) => (
            <CancellationOutcome
              key={cancellation.id}
              cancellation={cancellation}
              reference={registration.reference}
              today={fee.cancelledOn}
              mayRefund={registration.mayDecide}
            />
          ))}
        </section>
      ) : null}
      <BackOfficeHomeLink />
    </>
  )
}

/** A cancellation a staff member asked for: what, at which fee and why; a manager approves or declines it here. */
function PendingRequest({
  request,
  delegates,
  mayDecide,
}: {
  request: CancellationRequest
  delegates: ReadonlyArray<{ id: string; name: string }>
  mayDecide: boolean
}) {
  const who =
    request.delegateIds === 'all'
      ? 'The whole registration'
      : delegates
          .filter((delegate) => request.delegateIds.includes(delegate.id))
          .map((delegate) => delegate.name)
          .join(', ')
  const headingId = `request-${request.id}`
  return (
    <article aria-labelledby={headingId}>
      <h3 id={headingId}>{`Asked for by ${request.requestedBy.name}`}</h3>
      <dl>
        <dt>What</dt>
        <dd>{who}</dd>
        <dt>Fee</dt>
        <dd>
          {request.feePercent === null
            ? 'As the terms propose'
            : `${request.feePercent}%${request.overrideReason ? ` (reason: ${request.overrideReason})` : ''}`}
        </dd>
      </dl>
      {mayDecide ? (
        <>
          <Form method="post" className="admin-inline-form">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="requestId" value={request.id} />
            <SubmitButton aria-describedby={headingId}>Approve and cancel</SubmitButton>
          </Form>{' '}
          <Form method="post" className="admin-inline-form">
            <input type="hidden" name="intent" value="decline" />
            <input type="hidden" name="requestId" value={request.id} />
            <SubmitButton secondary aria-describedby={headingId}>
              Decline
            </SubmitButton>
          </Form>
        </>
      ) : null}
    </article>
  )
}
