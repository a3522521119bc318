import { passPage, passQrPath } from '@events/core'
import { data } from 'react-router'
import type { Route } from './+types/delegate-pass'
import { PassQr } from '../components/PassQr'
import { fromDatabase } from '../lib/database.server'
import { servicesContext } from '../lib/services.server'
import { sitePaths } from '../lib/site-links'

// The delegate's own pass, opened from their e-mail at the door: private, never cached or indexed, and it shows only
// what the door needs (name, event, days, code), nothing of the registration. An online delegate has no door to pass:
// their page gives their personal join link instead of a QR code.
const privateHeaders = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' }

export async function loader({ context, params }: Route.LoaderArgs) {
  const { core } = context.get(servicesContext)
  const pass = await fromDatabase(context, () => passPage(core.registrations, params.token))
  if (!pass) throw data('Pass not found', { status: 404, headers: privateHeaders })
  return data(
    { ...pass, qr: pass.online ? undefined : passQrPath(pass.code), joinPath: pass.online ? sitePaths.delegateJoin(params.token) : undefined },
    { headers: privateHeaders },
  )
}

export function headers() {
  return privateHeaders
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `Pass ${loaderData.code}` : 'Pass' }, { name: 'robots', content: 'noindex, nofollow' }]
}

export default function DelegatePass({ loaderData: pass }: Route.ComponentProps) {
  return (
    <div className="section pass">
      <h1 className="pass__name">{pass.name}</h1>
      <p className="pass__event">{pass.eventTitle}</p>
      <p>{pass.days}</p>
      {pass.joinPath ? (
        <>
          <p>You attend online: there is no door to pass. Join the event on the day with your personal link.</p>
          <p>
            <a className="button" href={pass.joinPath}>
              Join online
            </a>
          </p>
          <p>The link opens the meeting once the organisers have set it, and records that you attended each day you join.</p>
        </>
      ) : (
        <>
          {pass.qr && <PassQr qr={pass.qr} code={pass.code} />}
          <p className="pass__code">
            Pass code <strong>{pass.code}</strong>
          </p>
          <p>Show this QR code at the registration desk, or say the code.</p>
        </>
      )}
    </div>
  )
}
