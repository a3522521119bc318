import { isValidationError, requestQuote } from '@events/core'
import { redirect } from 'react-router'
import { fromDatabase } from '../lib/database.server'
import { countSubmission, formValues, readForm } from '../lib/forms.server'
import { servicesContext } from '../lib/services.server'
import type { Route } from './+types/event-quote'

/** Where the Register tab's quotation form is, with a refusal's code for it to word. */
function registerTab(request: Request, slug: string, refusal?: string): string {
  const kind = new URL(request.url).pathname.split('/')[1]
  return `/${kind}/${encodeURIComponent(slug)}?tab=register${refusal ? `&quote=${encodeURIComponent(refusal)}` : ''}#register-quote`
}

/** The quotation form lives on the Register tab. */
export function loader({ request, params }: Route.LoaderArgs) {
  return redirect(registerTab(request, params.slug))
}

/**
 * The Register tab's "Download a quote": a plain form post (it works without JavaScript) answered with the numbered
 * quotation as a PDF download; a refused request goes back to the tab, which says what to change.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { core } = context.get(servicesContext)
  try {
    const form = await readForm(request)
    await countSubmission(context)
    const quote = await fromDatabase(context, () => requestQuote(core.backOffice, { ...formValues(form), event: params.slug }))
    return new Response(new Uint8Array(quote.pdf), {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${quote.filename}"`,
        'Cache-Control': 'no-store',
      },
    })
  } catch (error) {
    if (isValidationError(error)) return redirect(registerTab(request, params.slug, error.code), 303)
    throw error
  }
}
