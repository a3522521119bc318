import { certificatesScreen, issueCertificates, resendCertificate, revokeCertificate, saveCpdDayHours } from '@events/core'
import { formatRand } from '@events/pricing'
import { data, Form } from 'react-router'
import { AdminField } from '../../components/admin/AdminField'
import { AdminMessages } from '../../components/admin/AdminMessages'
import { SubmitButton } from '../../components/admin/FormControls'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { eventScreenOr404, runStaffCommand } from '../../lib/backoffice.server'
import { sitePaths } from '../../lib/site-links'
import type { Route } from './+types/certificates'

export function meta({ loaderData }: Route.MetaArgs) {
  return adminMeta(loaderData ? `Certificates: ${loaderData.screen.event.title}` : 'Certificates')
}

const STATE_LABELS = { valid: 'Valid', revoked: 'Revoked', replaced: 'Replaced' } as const

/** The form field of one day's CPD hours. */
const hoursField = (date: string) => `hours-${date}`

const screenOr404 = (args: Route.LoaderArgs | Route.ActionArgs) => eventScreenOr404(args.context, args.params.eventId, certificatesScreen)

export async function loader(args: Route.LoaderArgs) {
  const { headers } = await requireStaffMember(args)
  return data({ screen: await screenOr404(args) }, { headers })
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const eventId = args.params.eventId
  const intent = formText(form, 'intent')
  const answer = (outcome: { ok: true; notice: string } | { ok: false; status: number; message: string; fields?: Record<string, string> }) =>
    outcome.ok
      ? data({ notice: outcome.notice }, { headers })
      : data({ error: outcome.message, fields: outcome.fields ?? {} }, { status: outcome.status, headers })
  if (intent === 'issue') {
    const issued = await runStaffCommand(args.context, user, issueCertificates, { eventId })
    if (!issued.ok) return answer(issued)
    const count = issued.value.issued
    return answer({
      ok: true,
      notice:
        count === 0
          ? 'No certificates were due: every delegate who attended has one.'
          : `${count} ${count === 1 ? 'certificate was' : 'certificates were'} issued and e-mailed.`,
    })
  }
  if (intent === 'hours') {
    // Each day has its own form and its own field, so a refusal is shown beside the day it is about.
    const date = formText(form, 'date')
    const field = hoursField(date)
    const saved = await runStaffCommand(args.context, user, saveCpdDayHours, { eventId, date, hours: formText(form, field) }, { hours: field, date: field })
    if (!saved.ok) return answer(saved)
    return answer({
      ok: true,
      notice: saved.value.hours === undefined ? 'That day’s CPD hours are counted from the agenda again.' : 'That day’s CPD hours are saved.',
    })
  }
  const number = formText(form, 'number')
  if (intent === 'resend') {
    const resent = await runStaffCommand(args.context, user, resendCertificate, { number })
    return answer(resent.ok ? { ok: true, notice: `Certificate ${resent.value.number} is sent again.` } : resent)
  }
  if (intent === 'revoke') {
    const revoked = await runStaffCommand(args.context, user, revokeCertificate, { number })
    return answer(revoked.ok ? { ok: true, notice: `Certificate ${revoked.value.number} is revoked.` } : revoked)
  }
  throw data('Unknown action.', { status: 400, headers })
}

export default function Certificates({ loaderData, actionData }: Route.ComponentProps) {
  const { event, ended, days, totalHoursText, onlyWhenPaid, waitingForPayment, certificates } = loaderData.screen
  const error = actionData && 'error' in actionData ? actionData : undefined
  return (
    <>
      <h1>Certificates: {event.title}</h1>
      <p>
        After the event each delegate checked in at the venue or joined online on a day gets a certificate of attendance by e-mail (the hourly round, or{' '}
        <em>Issue certificates</em> below). Its QR code opens its public verification page.
        {onlyWhenPaid
          ? ' A delegate whose registration is not paid in full gets theirs when it is paid.'
          : ' This event issues certificates whether or not the registration is paid.'}
      </p>
      <AdminMessages notice={actionData && 'notice' in actionData ? actionData.notice : undefined} error={error?.error} />
      <h2>CPD hours</h2>
      <p>
        Each day counts its agenda’s sessions, breaks and registration left out, in whole half hours; staff’s hours for a day replace its count. Attending every
        day gives {totalHoursText}.
      </p>
      {days.map((day) => (
        <Form method="post" className="form" noValidate key={day.date}>
          <input type="hidden" name="intent" value="hours" />
          <input type="hidden" name="date" value={day.date} />
          <AdminField
            name={hoursField(day.date)}
            label={`${day.dateText}: ${day.hoursText}`}
            value={day.hours === undefined ? '' : String(day.hours)}
            error={error?.fields[hoursField(day.date)]}
            required={false}
            inputMode="decimal"
            hint={`The agenda gives ${day.agendaHoursText}, of which ethics ${day.ethicsHoursText}. Staff’s hours in half hours, e.g. 6 or 6.5; empty to count the agenda.`}
          />
          <SubmitButton secondary aria-label={`Save the CPD hours of ${day.dateText}`}>
            Save
          </SubmitButton>
        </Form>
      ))}
      {onlyWhenPaid && waitingForPayment.length > 0 && (
        <>
          <h2>Waiting for payment</h2>
          <p>These delegates attended; their certificates are issued when their registration is paid in full.</p>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Delegate</th>
                <th scope="col">Registration</th>
                <th scope="col">Outstanding</th>
              </tr>
            </thead>
            <tbody>
              {waitingForPayment.map((delegate, index) => (
                <tr key={`${delegate.reference}-${index}`}>
                  <td>{delegate.name}</td>
                  <td>
                    <a href={`/admin/registrations/${encodeURIComponent(delegate.reference)}`}>{delegate.reference}</a>
                  </td>
                  <td>Waiting for payment: {formatRand(delegate.outstandingCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2>Issued</h2>
      {ended ? (
        <Form method="post">
          <input type="hidden" name="intent" value="issue" />
          <SubmitButton>Issue certificates</SubmitButton>
        </Form>
      ) : (
        <p>The event has not ended yet: certificates are issued after its last day.</p>
      )}
      {certificates.length > 0 ? (
        <>
          <p>
            <a href={`/admin/events/${encodeURIComponent(event.id)}/certificates.zip`} download>
              Download all certificates in force (ZIP)
            </a>
          </p>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Delegate</th>
                <th scope="col">Number</th>
                <th scope="col">Days</th>
                <th scope="col">CPD hours</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {certificates.map((certificate) => (
                <tr key={certificate.number}>
                  <td>
                    {certificate.name} ({certificate.reference})
                  </td>
                  <td>
                    <a href={sitePaths.certificate(certificate.number)}>{certificate.number}</a>
                  </td>
                  <td>{certificate.daysText}</td>
                  <td>{certificate.cpdHoursText}</td>
                  <td>
                    {STATE_LABELS[certificate.state]}
                    {certificate.replacedBy ? ` by ${certificate.replacedBy}` : ''}
                  </td>
                  <td>
                    {certificate.state === 'valid' && (
                      <>
                        <Form method="post">
                          <input type="hidden" name="number" value={certificate.number} />
                          <input type="hidden" name="intent" value="resend" />
                          <SubmitButton secondary aria-label={`Resend certificate ${certificate.number}`}>
                            Resend
                          </SubmitButton>
                        </Form>
                        <Form method="post">
                          <input type="hidden" name="number" value={certificate.number} />
                          <input type="hidden" name="intent" value="revoke" />
                          <SubmitButton secondary aria-label={`Revoke certificate ${certificate.number}`}>
                            Revoke
                          </SubmitButton>
                        </Form>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <p>No certificates issued yet.</p>
      )}
    </>
  )
}
