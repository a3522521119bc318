import { certificateFilename, certificatePdf, verifyCertificate } from '@events/core'
import { data } from 'react-router'
import type { Route } from './+types/certificate-pdf'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'

/** A certificate in force as its PDF, by its number; a revoked or replaced one is only verified, not downloaded. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const found = await fromDatabase(context, async () => {
    const certificate = await verifyCertificate(core.backOffice, params.number)
    const pdf = certificate?.state === 'valid' ? await certificatePdf(core.backOffice, certificate.number) : undefined
    return pdf && { pdf, number: certificate!.number }
  })
  if (!found) throw data('Certificate not found', { status: 404 })
  return new Response(new Uint8Array(found.pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${certificateFilename(found.number)}"`,
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
    },
  })
}
