import { StaffAccountError, type StaffSession } from '@events/staff'
import QRCode from 'qrcode'
import { data, type RouterContextProvider } from 'react-router'
import { fromDatabase } from './database.server'
import { requestFactsContext, servicesContext } from './services.server'

export { MIN_PASSWORD_LENGTH } from '@events/staff'

interface AdminArgs {
  request: Request
  context: Readonly<RouterContextProvider>
}

interface GuardOptions {
  /** The least role admitted: `owner` for owners only, `manager` for managers and owners; 403 for anyone else. */
  role?: 'owner' | 'manager'
  /** The two-factor page itself, which a member who must set it up has to reach. */
  allowPendingTwoFactorSetup?: boolean
}

/**
 * The first step of every protected /admin loader and action: the signed-in staff member, or a thrown answer — the
 * sign-in page for a page request, 401 for a data request, 403 when the role does not suffice.
 */
export async function requireStaffMember({ request, context }: AdminArgs, options: GuardOptions = {}): Promise<StaffSession> {
  const { staff } = context.get(servicesContext)
  const { dataRequest } = context.get(requestFactsContext)
  return fromDatabase(context, () => staff.requireStaff(request, { ...options, unauthenticated: dataRequest ? 'status' : 'redirect' }))
}

/**
 * Refuses a form post that another site made the browser send (CSRF): the browser's Fetch Metadata or its Origin
 * must say the post came from the site itself. Browsers send at least one of them with every form post.
 */
export function refuseCrossSitePost({ request, context }: AdminArgs): void {
  const siteOrigin = new URL(context.get(servicesContext).config.siteUrl).origin
  const fetchSite = request.headers.get('sec-fetch-site')
  const origin = request.headers.get('origin')
  const sameSite = fetchSite === null ? origin === siteOrigin : fetchSite === 'same-origin' && (origin === null || origin === siteOrigin)
  if (!sameSite) {
    context.get(requestFactsContext).log.warn({ origin, fetchSite }, 'Back office: a form post from another site was refused')
    throw data('Send this form from the back office’s own page.', { status: 403 })
  }
}

/** The first step of the actions of the pages used signed out (sign-in, passwords): a cross-site post is refused; answers the posted form. */
export async function signedOutFormPost(args: AdminArgs): Promise<FormData> {
  refuseCrossSitePost(args)
  return args.request.formData()
}

/**
 * The first step of every protected /admin action: a post another site made the browser send is refused, then
 * anyone who may not post here (see `requireStaffMember`); answers the staff member's session and the posted form.
 */
export async function staffFormPost(args: AdminArgs, options: GuardOptions = {}): Promise<{ session: StaffSession; form: FormData }> {
  refuseCrossSitePost(args)
  const session = await requireStaffMember(args, options)
  return { session, form: await args.request.formData() }
}

/** A text field of a posted form, or the empty string. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/**
 * Runs an account operation that the member may be refused (a wrong password or code, a duplicate address): its
 * result, or the refusal's message for the form. Database faults answer 503; other errors go on.
 */
export async function attemptAccountChange<Result>(
  context: Readonly<RouterContextProvider>,
  run: () => Promise<Result>,
): Promise<{ ok: true; value: Result } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await fromDatabase(context, run) }
  } catch (error) {
    if (error instanceof StaffAccountError) return { ok: false, message: error.message }
    throw error
  }
}

/** Where a signed-in member goes after signing in: a back-office path they asked for, or the back-office home. */
export function afterSignInPath(requested: string | null): string {
  return requested && requested.startsWith('/admin') && !requested.startsWith('/admin/sign-in') ? requested : '/admin'
}

/** The otpauth:// setup address as an SVG QR code for the authenticator app's camera, drawn on the server. */
export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', margin: 2 })
}
