import { verifyCertificate } from '@events/core'
import { data } from 'react-router'
import type { Route } from './+types/certificate'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'
import { sitePaths } from '../lib/site-links'

// The public verification page a certificate's QR code opens: anyone holding the number may check what it certifies,
// so it shows only what is printed on it; not indexed, and its state can change (revoked, replaced), so not cached.
const verificationHeaders = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }

export async function loader({ context, params }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const certificate = await fromDatabase(context, () => verifyCertificate(core.registrations, params.number))
  if (!certificate) throw data('Certificate not found', { status: 404, headers: verificationHeaders })
  return data(
    {
      ...certificate,
      pdfPath: certificate.state === 'valid' ? sitePaths.certificatePdf(certificate.number) : undefined,
      replacedByPath: certificate.replacedBy ? sitePaths.certificate(certificate.replacedBy) : undefined,
    },
    { headers: verificationHeaders },
  )
}

export function headers() {
  return verificationHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Certificate ${loaderData.number}` : 'Certificate' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function CertificateVerification({ loaderData: certificate }: Route.ComponentProps) {
  const details = certificate.details
  return (
    <div className="section certificate">
      <h1>Certificate {certificate.number}</h1>
      {certificate.state === 'valid' && (
        <p role="status">
          <strong>This certificate of attendance is valid.</strong>
        </p>
      )}
      {certificate.state === 'revoked' && (
        <p role="status">
          <strong>This certificate was revoked</strong> by {certificate.organiser}: it no longer certifies attendance.
        </p>
      )}
      {certificate.state === 'replaced' && (
        <p role="status">
          <strong>This certificate was replaced by</strong> <a href={certificate.replacedByPath}>{certificate.replacedBy}</a>.
        </p>
      )}
      <dl className="certificate__facts">
        <dt>Name</dt>
        <dd>{certificate.name}</dd>
        {details?.professionalRegistrationNumber && (
          <>
            <dt>Professional registration number</dt>
            <dd>{details.professionalRegistrationNumber}</dd>
          </>
        )}
        <dt>Event</dt>
        <dd>{certificate.eventTitle}</dd>
        <dt>Dates attended</dt>
        <dd>{certificate.daysText}</dd>
        {details?.venue && (
          <>
            <dt>Venue</dt>
            <dd>{details.venue}</dd>
          </>
        )}
        {certificate.dayHours.length > 0 && (
          <>
            <dt>Hours per day</dt>
            <dd>
              <ul>
                {certificate.dayHours.map((day) => (
                  <li key={day.date}>
                    {day.dateText}: {day.hoursText}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>CPD hours</dt>
        <dd>{certificate.cpdHoursText}</dd>
        {certificate.ethicsHoursText && (
          <>
            <dt>Of which ethics</dt>
            <dd>{certificate.ethicsHoursText}</dd>
          </>
        )}
        {details?.accreditation && (
          <>
            <dt>Accredited by</dt>
            <dd>
              {details.accreditation.accreditingBody}, provider accreditation number {details.accreditation.accreditationNumber}
            </dd>
            {details.accreditation.category && (
              <>
                <dt>CPD category</dt>
                <dd>{details.accreditation.category}</dd>
              </>
            )}
          </>
        )}
        <dt>Organiser</dt>
        <dd>{certificate.organiser}</dd>
        {details?.signatory && (
          <>
            <dt>Signed by</dt>
            <dd>
              {details.signatory.name}
              {details.signatory.title ? `, ${details.signatory.title}` : ''}
            </dd>
          </>
        )}
      </dl>
      {certificate.pdfPath && (
        <p>
          <a href={certificate.pdfPath} download>
            Download certificate {certificate.number} (PDF)
          </a>
        </p>
      )}
    </div>
  )
}
