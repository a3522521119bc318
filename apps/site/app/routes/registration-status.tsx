import { formatDay } from '@events/content/event-dates'
import { venueLabel } from '@events/content/venue'
import {
  formatEventDays,
  getRegistrationByReferenceAndSecret,
  isValidationError,
  passQrPath,
  paysByCard,
  professionalRegistrationNumbers,
  registrationCertificates,
  registrationPasses,
  requestCancellationByRegistrant,
  saveProfessionalRegistrationNumber,
  selfServiceOf,
  substituteDelegateByRegistrant,
} from '@events/core'
import { PAYMENT_METHOD_LABELS } from '@events/core/choices'
import { Amount } from '../components/Amount'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/registration-status'
import { PayButton } from '../components/PayButton'
import { fromDatabase } from '../lib/database.server'
import { validationRefusal } from '../lib/refusals'
import { servicesContext } from '../lib/services.server'
import { sitePaths } from '../lib/site-links'
import { useSiteSettings } from '../lib/site-settings'
import { BankDetailsList } from '../components/BankDetailsList'
import { PageHero } from '../components/PageHero'
import { PassQr } from '../components/PassQr'
import { SelfServicePanel, type SelfServiceOutcome } from '../components/SelfServicePanel'
import { attemptChange, commandContext } from '../lib/backoffice.server'
import { requestFactsContext } from '../lib/services.server'

// The page is the registrant's own: private, never cached or indexed. (JSON for the same URL is answered before
// React Router, see server/api.ts.)
const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex', Vary: 'Accept' }

export async function loader({ context, params }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const details = await fromDatabase(context, () => getRegistrationByReferenceAndSecret(core.registrations, params.reference, params.secret))
  if (!details) throw data('Registration not found', { status: 404, headers: privateHeaders })
  const passes = (await fromDatabase(context, () => registrationPasses(core.registrations, params.reference, params.secret))) ?? []
  const certificates = (await fromDatabase(context, () => registrationCertificates(core.registrations, params.reference, params.secret))) ?? []
  const selfService = await fromDatabase(context, () => selfServiceOf(commandContext(context), params.reference, params.secret))
  const registrationNumbers = await fromDatabase(context, () => professionalRegistrationNumbers(core.registrations, params.reference, params.secret))
  return data(
    {
      reference: details.reference,
      event: details.event,
      eventDays: formatEventDays(details.event.start, details.event.end),
      companyName: details.companyName,
      option: details.attendanceOption.label,
      paymentMethod: details.paymentMethod,
      delegates: details.delegates,
      registrationNumbers,
      passes: passes.map((pass) => ({
        name: pass.name,
        code: pass.code,
        path: sitePaths.delegatePass(pass.token),
        joinPath: sitePaths.delegateJoin(pass.token),
        online: pass.online,
        // An online delegate has no door to pass: the page sends no QR code for them.
        qr: pass.online ? undefined : passQrPath(pass.code),
      })),
      certificates: certificates.map((certificate) => ({
        number: certificate.number,
        name: certificate.name,
        cpdHoursText: certificate.cpdHoursText,
        daysText: certificate.daysText,
        state: certificate.state,
        path: sitePaths.certificate(certificate.number),
        pdfPath: certificate.state === 'valid' ? sitePaths.certificatePdf(certificate.number) : undefined,
      })),
      subtotalCents: details.subtotalCents,
      vatCents: details.vatCents,
      totalCents: details.totalCents,
      email: details.email,
      paymentPath: paysByCard(details.paymentMethod) ? sitePaths.registrationPayment(details) : undefined,
      paid: details.status === 'paid',
      partPaid: details.status === 'part-paid',
      paidCents: details.paidCents,
      outstandingCents: details.outstandingCents,
      invoice: details.invoice ? { number: details.invoice.number, path: sitePaths.invoice(details) } : undefined,
      replacedInvoices: details.invoices.flatMap((invoice) =>
        invoice.replacedBy
          ? [
              {
                number: invoice.number,
                path: sitePaths.issuedInvoice(details, invoice.number),
                replacedBy: invoice.replacedBy.number,
                replacedOn: formatDay(new Date(invoice.replacedBy.issuedAt)),
              },
            ]
          : [],
      ),
      creditNotes: details.creditNotes.map((note) => ({ number: note.number, path: sitePaths.creditNote(details, note.number) })),
      cancelled: details.cancelledAt !== null,
      selfService,
      discount: details.discount,
    },
    { headers: privateHeaders },
  )
}

/**
 * The registrant's own changes, posted from the page's forms: a delegate's professional registration number (a
 * CPD-accredited event, until it ends), a substitution, or a request to cancel.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const form = await request.formData()
  const values = Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]))
  if (values.intent === 'registration-number') {
    const { answer, status } = await saveRegistrationNumber(context, params, values)
    return data({ registrationNumber: answer, selfService: undefined }, { status, headers: privateHeaders })
  }
  const intent = values.intent === 'ask-to-cancel' ? 'ask-to-cancel' : 'substitute'
  const { clientIp } = context.get(requestFactsContext)
  const input = { ...values, reference: params.reference, secret: params.secret }
  const outcome =
    intent === 'substitute'
      ? await attemptChange(context, () => substituteDelegateByRegistrant(commandContext(context), input, clientIp))
      : await attemptChange(context, () => requestCancellationByRegistrant(commandContext(context), input, clientIp))
  const answer: SelfServiceOutcome = outcome.ok
    ? {
        intent,
        ok: true,
        message:
          intent === 'substitute'
            ? 'Done: the new delegate receives their pass by e-mail, and we have e-mailed you a confirmation.'
            : 'Your request to cancel is with us: a manager reviews it, and we have e-mailed you what the terms give.',
        fields: {},
        values: {},
      }
    : { intent, ok: false, message: outcome.message, fields: outcome.fields, values }
  return data({ registrationNumber: undefined, selfService: answer }, { status: outcome.ok ? 200 : outcome.status, headers: privateHeaders })
}

/** A delegate's professional registration number saved from this page: the notice or the refusal beside its field. */
async function saveRegistrationNumber(context: Route.ActionArgs['context'], params: Route.ActionArgs['params'], values: Record<string, string>) {
  const { core } = context.get(servicesContext)
  const input = { delegate: values.delegate ?? '', professionalRegistrationNumber: values.professionalRegistrationNumber ?? '' }
  const delegate = Number(input.delegate)
  try {
    const saved = await fromDatabase(context, () => saveProfessionalRegistrationNumber(core.registrations, params.reference, params.secret, input))
    if (!saved) throw data('Registration not found', { status: 404, headers: privateHeaders })
    const notice = saved.professionalRegistrationNumber
      ? `${saved.name}’s professional registration number is saved.`
      : `${saved.name}’s professional registration number is removed.`
    return { answer: { delegate, notice, error: undefined }, status: 200 }
  } catch (error) {
    if (!isValidationError(error)) throw error
    const { status, body } = validationRefusal(error, 'registration')
    return { answer: { delegate, notice: undefined, error: body.error.fields.professionalRegistrationNumber ?? body.error.message }, status }
  }
}

export function headers() {
  return privateHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Registration ${loaderData.reference}` : 'Registration' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function RegistrationStatus({ loaderData, actionData }: Route.ComponentProps) {
  const settings = useSiteSettings()
  const registration = loaderData
  const onlinePasses = registration.passes.filter((pass) => pass.online)
  const doorPasses = registration.passes.filter((pass) => !pass.online)
  const bank = settings?.bankDetails
  const isBankTransfer = registration.paymentMethod === 'bank-transfer'
  const paymentLabel = PAYMENT_METHOD_LABELS[registration.paymentMethod]
  return (
    <>
      <PageHero title="Registration received">
        <p>
          Your reference number is <strong className="reference">{registration.reference}</strong>.
        </p>
      </PageHero>
      <div className="section prose">
        <p>Keep this page&apos;s address: it is your private link to this registration. We have e-mailed it, with a confirmation, to {registration.email}.</p>
        <h2>{registration.event.title}</h2>
        <p>
          {registration.eventDays}, {venueLabel(registration.event.venue)}
        </p>
        <dl className="registration-summary">
          <dt>Company</dt>
          <dd>{registration.companyName}</dd>
          <dt>Attendance option</dt>
          <dd>{registration.option}</dd>
          <dt>Payment method</dt>
          <dd>{paymentLabel}</dd>
          {registration.discount && (
            <>
              <dt>{registration.discount.complimentary ? 'Complimentary seat' : 'Discount'}</dt>
              <dd className="registration-summary__discount">
                {registration.discount.complimentary ? 'A sponsor’s complimentary seat: nothing to pay. ' : ''}
                {registration.discount.description}: <Amount cents={-registration.discount.discountCents} /> excl. VAT
              </dd>
            </>
          )}
          <dt>Subtotal</dt>
          <dd>
            <Amount cents={registration.subtotalCents} />
          </dd>
          <dt>VAT</dt>
          <dd>
            <Amount cents={registration.vatCents} />
          </dd>
          <dt>Total</dt>
          <dd>
            <strong>
              <Amount cents={registration.totalCents} />
            </strong>{' '}
            incl. VAT
          </dd>
        </dl>
        <h2>Delegates</h2>
        <ul>
          {registration.delegates.map((delegate, index) => (
            <li key={index}>
              {delegate.name}, {delegate.position} ({delegate.email})
            </li>
          ))}
        </ul>
        {registration.registrationNumbers && (
          <>
            <h2>Professional registration numbers</h2>
            {registration.registrationNumbers.open ? (
              <p>
                This event is accredited for CPD. Each delegate may give their professional registration number (optional, at most 40 characters): it is printed
                on their certificate of attendance. It can be changed here until the event ends.
              </p>
            ) : (
              <p>The event has ended: the certificates print the numbers given by then.</p>
            )}
            {registration.registrationNumbers.delegates.map((delegate) => {
              const answer = actionData?.registrationNumber?.delegate === delegate.delegate ? actionData.registrationNumber : undefined
              const id = `registration-number-${delegate.delegate}`
              return registration.registrationNumbers!.open ? (
                <Form method="post" className="form registration-number" key={delegate.delegate} noValidate>
                  <input type="hidden" name="intent" value="registration-number" />
                  <input type="hidden" name="delegate" value={delegate.delegate} />
                  <div className="form__field">
                    <label htmlFor={id}>Professional registration number of {delegate.name}</label>
                    <input
                      id={id}
                      name="professionalRegistrationNumber"
                      type="text"
                      maxLength={40}
                      autoComplete="off"
                      defaultValue={delegate.professionalRegistrationNumber}
                      aria-invalid={answer?.error ? true : undefined}
                      aria-describedby={answer?.error ? `${id}-error` : undefined}
                    />
                    {answer?.error && (
                      <p className="form__error" id={`${id}-error`}>
                        {answer.error}
                      </p>
                    )}
                  </div>
                  <button type="submit" className="button" aria-label={`Save the professional registration number of ${delegate.name}`}>
                    Save
                  </button>
                  {answer?.notice && <p role="status">{answer.notice}</p>}
                </Form>
              ) : (
                <p key={delegate.delegate}>
                  {delegate.name}: {delegate.professionalRegistrationNumber || 'none given'}
                </p>
              )
            })}
          </>
        )}
        {onlinePasses.length > 0 && (
          <>
            <h2>Joining online</h2>
            <p>Each online delegate joins with a personal link of their own, also e-mailed to them before the event. There is no pass for a door.</p>
            <ul>
              {onlinePasses.map((pass) => (
                <li key={pass.code}>
                  <a href={pass.joinPath}>{pass.name}’s personal link to join online</a>
                </li>
              ))}
            </ul>
          </>
        )}
        {doorPasses.length > 0 && (
          <>
            <h2>Passes</h2>
            <p>Each delegate shows their pass at the registration desk: the QR code, or its code. Each pass has a page of its own to open on a phone.</p>
            <ul className="passes">
              {doorPasses.map((pass) => (
                <li key={pass.code}>
                  <strong>{pass.name}</strong>
                  {pass.qr && <PassQr qr={pass.qr} code={pass.code} />}
                  <span>
                    Pass <strong>{pass.code}</strong> · <a href={pass.path}>Open {pass.name}’s pass</a>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
        {registration.certificates.length > 0 && (
          <>
            <h2>Certificates of attendance</h2>
            <ul>
              {registration.certificates.map((certificate) => (
                <li key={certificate.number}>
                  <strong>{certificate.name}</strong>: {certificate.daysText}, {certificate.cpdHoursText} of CPD ·{' '}
                  <a href={certificate.path}>Verify certificate {certificate.number}</a>
                  {certificate.pdfPath ? (
                    <>
                      {' '}
                      ·{' '}
                      <a href={certificate.pdfPath} download>
                        Download certificate {certificate.number} (PDF)
                      </a>
                    </>
                  ) : (
                    ` (${certificate.state})`
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
        {registration.invoice && (
          <p>
            <a href={registration.invoice.path} download>
              Download tax invoice {registration.invoice.number} (PDF)
            </a>
          </p>
        )}
        {registration.replacedInvoices.map((invoice) => (
          <p key={invoice.number}>
            Tax invoice {invoice.number}: replaced by {invoice.replacedBy} on {invoice.replacedOn}.{' '}
            <a href={invoice.path} download>
              Download tax invoice {invoice.number} (PDF)
            </a>
          </p>
        ))}
        {registration.cancelled && (
          <p className="payment-status" role="status">
            <strong>This registration is cancelled.</strong> The credit note below says what was credited.
          </p>
        )}
        {registration.creditNotes.map((note) => (
          <p key={note.number}>
            <a href={note.path} download>
              Download credit note {note.number} (PDF)
            </a>
          </p>
        ))}
        <h2>What happens next</h2>
        {registration.paid ? (
          <p className="payment-status" role="status">
            <strong>Payment received.</strong> Your registration is paid in full; the receipt is in your e-mail.
          </p>
        ) : registration.partPaid ? (
          <>
            <p className="payment-status" role="status">
              <strong>Part payment received.</strong> We have received <Amount cents={registration.paidCents} />;{' '}
              <Amount cents={registration.outstandingCents} /> is still to be paid. Please pay the rest by bank transfer, quoting{' '}
              <strong>{registration.reference}</strong> as the payment reference.
            </p>
            {bank && <BankDetailsList bank={bank} reference={registration.reference} />}
          </>
        ) : registration.creditNotes.length > 0 ? (
          registration.outstandingCents > 0 ? (
            <>
              <p className="payment-status" role="status">
                After what the credit {registration.creditNotes.length === 1 ? 'note credits' : 'notes credit'},{' '}
                <Amount cents={registration.outstandingCents} /> is still to be paid. Please pay it by bank transfer, quoting{' '}
                <strong>{registration.reference}</strong> as the payment reference.
              </p>
              {bank && <BankDetailsList bank={bank} reference={registration.reference} />}
            </>
          ) : (
            <p className="payment-status" role="status">
              Nothing more is to be paid.
            </p>
          )
        ) : isBankTransfer ? (
          <>
            <p>
              Your tax invoice is attached to the confirmation e-mail and can be downloaded above. Please pay in full within {settings?.paymentTermsDays ?? 5}{' '}
              days of the invoice date by bank transfer, quoting <strong>{registration.reference}</strong> as the payment reference. Seats are confirmed once
              payment is received.
            </p>
            {bank && <BankDetailsList bank={bank} reference={registration.reference} />}
          </>
        ) : (
          <>
            <p>Pay now by card, EFT or Google Pay on the secure payment page. Seats are confirmed once payment is received.</p>
            {registration.paymentPath && <PayButton paymentPath={registration.paymentPath} totalCents={registration.totalCents} />}
          </>
        )}
        <p>
          Questions about your registration? <Link to="/#contact">Contact us</Link> and quote your reference. Our <Link to="/terms">terms and conditions</Link>{' '}
          cover substitutions and cancellations.
        </p>
        {registration.selfService && <SelfServicePanel selfService={registration.selfService} outcome={actionData?.selfService} />}
      </div>
    </>
  )
}
