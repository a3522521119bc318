import { betterAuth } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { twoFactor } from 'better-auth/plugins'
import type { BetterAuthPlugin } from 'better-auth'
import type { Kysely } from 'kysely'
import type { StaffKysely } from './db/database.ts'
import { recordAudit } from './audit.ts'
import { accountLocked, clearSignInFailures, recordSignInFailure, type SignInLimit } from './sign-in-failures.ts'

/**
 * The header carrying the client's address to the rate limiter and the audit log. The server sets it from the
 * address Express derived under TRUST_PROXY and replaces whatever a client sent under that name.
 */
export const STAFF_CLIENT_IP_HEADER = 'x-staff-client-ip'

/** The one answer to a failed sign-in: it does not say whether the e-mail address is known. */
export const SIGN_IN_FAILED_MESSAGE = 'The e-mail address or password is wrong.'
const SIGN_IN_LOCKED_MESSAGE = 'Too many failed sign-ins. Try again later.'

/** A signed-in staff member stays signed in while active; 8 hours without a request end the session. */
export const IDLE_EXPIRY_SECONDS = 8 * 60 * 60
/** How often activity pushes the expiry on (a write per session at most this often). */
const SESSION_REFRESH_SECONDS = 5 * 60
export const MIN_PASSWORD_LENGTH = 12
/** Password reset links work for an hour. */
export const RESET_LINK_SECONDS = 60 * 60

export interface SignInLimits {
  /** Sign-in requests from one address (better-auth's rate limiter, stored in the database). */
  perAddress: SignInLimit
  /** Failed sign-ins for one e-mail address, from anywhere. */
  perAccount: SignInLimit
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAddress: { max: 10, windowSeconds: 15 * 60 },
  perAccount: { max: 5, windowSeconds: 15 * 60 },
}

export interface StaffAuthOptions {
  kysely: StaffKysely
  dialect: 'sqlite' | 'postgres'
  /** Where the site mounts better-auth's endpoints (`auth.handler`), as an absolute URL. */
  authUrl: string
  siteName: string
  secret: string
  signInLimits: SignInLimits
  /** Sends a new-password link: a reset, or an invited account's first password. */
  sendPasswordLink(link: { userId: string; email: string; name: string; token: string }): Promise<void>
}

function clientIp(headers: Headers | undefined): string | null {
  return headers?.get(STAFF_CLIENT_IP_HEADER) ?? null
}

/** Sign-in bookkeeping (the per-account limit, the one failure message) and the audit entries of better-auth's endpoints. */
function signInAudit(options: StaffAuthOptions): BetterAuthPlugin {
  const { kysely, signInLimits } = options
  const isSignIn = (context: { path?: string }) => context.path === '/sign-in/email'
  const isSecondFactor = (context: { path?: string }) => context.path === '/two-factor/verify-totp' || context.path === '/two-factor/verify-backup-code'
  return {
    id: 'staff-sign-in-audit',
    hooks: {
      before: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (context) => {
            const email = String((context.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()
            if (await accountLocked(kysely, email, signInLimits.perAccount, new Date())) {
              await recordAudit(kysely, {
                actor: null,
                action: 'sign-in-refused',
                subjectType: 'staff-user',
                after: { email, reason: 'too-many-failures' },
                ipAddress: clientIp(context.headers),
              })
              throw new APIError('TOO_MANY_REQUESTS', { message: SIGN_IN_LOCKED_MESSAGE })
            }
          }),
        },
      ],
      after: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (context) => {
            const email = String((context.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()
            const returned = context.context.returned
            const ipAddress = clientIp(context.headers)
            if (returned instanceof APIError) {
              if (returned.statusCode !== 401) return
              await recordSignInFailure(kysely, email, signInLimits.perAccount, new Date())
              const user = await kysely.selectFrom('staff_users').select('id').where('email', '=', email).executeTakeFirst()
              await recordAudit(kysely, {
                actor: null,
                action: 'sign-in-failed',
                subjectType: 'staff-user',
                subjectId: user?.id ?? null,
                after: { email },
                ipAddress,
              })
              throw new APIError('UNAUTHORIZED', { message: SIGN_IN_FAILED_MESSAGE, code: 'INVALID_EMAIL_OR_PASSWORD' })
            }
            await clearSignInFailures(kysely, email)
            const session = context.context.newSession
            // With two-factor on, the password alone opens no session: the sign-in is recorded when the code is.
            if (session) {
              await recordAudit(kysely, {
                actor: { id: session.user.id, email: session.user.email },
                action: 'sign-in',
                subjectType: 'staff-user',
                subjectId: session.user.id,
                ipAddress,
              })
            }
          }),
        },
        {
          matcher: (context) => context.path === '/change-password',
          handler: createAuthMiddleware(async (context) => {
            const user = context.context.session?.user
            if (!user || context.context.returned instanceof APIError) return
            await recordAudit(kysely, { actor: { id: user.id, email: user.email }, action: 'password-changed', subjectType: 'staff-user', subjectId: user.id, ipAddress: clientIp(context.headers) })
          }),
        },
        {
          matcher: isSecondFactor,
          handler: createAuthMiddleware(async (context) => {
            const returned = context.context.returned
            const session = context.context.newSession
            const ipAddress = clientIp(context.headers)
            if (returned instanceof APIError) {
              await recordAudit(kysely, { actor: null, action: 'sign-in-failed', subjectType: 'staff-user', after: { secondFactor: true }, ipAddress })
            } else if (session && !context.context.session) {
              await recordAudit(kysely, {
                actor: { id: session.user.id, email: session.user.email },
                action: 'sign-in',
                subjectType: 'staff-user',
                subjectId: session.user.id,
                after: { secondFactor: true },
                ipAddress,
              })
            }
          }),
        },
      ],
    },
  }
}

/** better-auth over the project's database: e-mail and password, database sessions, TOTP, database rate limits. */
export function createStaffAuth(options: StaffAuthOptions) {
  const authUrl = new URL(options.authUrl)
  const https = authUrl.protocol === 'https:'
  return betterAuth({
    appName: options.siteName,
    baseURL: authUrl.origin,
    basePath: authUrl.pathname,
    secret: options.secret,
    database: { db: options.kysely as unknown as Kysely<unknown>, type: options.dialect },
    telemetry: { enabled: false },
    user: {
      modelName: 'staff_users',
      additionalFields: { role: { type: 'string', required: true, input: false, defaultValue: 'staff' } },
    },
    session: {
      modelName: 'staff_sessions',
      expiresIn: IDLE_EXPIRY_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
    },
    account: { modelName: 'staff_accounts' },
    verification: { modelName: 'staff_verifications' },
    emailAndPassword: {
      enabled: true,
      // Accounts come from the command line and from invitations, never from a public sign-up.
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 256,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await options.sendPasswordLink({ userId: user.id, email: user.email, name: user.name, token })
      },
      onPasswordReset: async ({ user }) => {
        await recordAudit(options.kysely, { actor: { id: user.id, email: user.email }, action: 'password-reset', subjectType: 'staff-user', subjectId: user.id })
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'staff_rate_limits',
      customRules: {
        '/sign-in/email': { window: options.signInLimits.perAddress.windowSeconds, max: options.signInLimits.perAddress.max },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [STAFF_CLIENT_IP_HEADER] },
      // better-auth skips its Origin (CSRF) check under NODE_ENV=test; the tests must see what production does.
      disableOriginCheck: false,
      // Over https the cookies are `__Host-` prefixed (Secure, path /, no Domain): no subdomain can set or read them.
      useSecureCookies: false,
      cookiePrefix: https ? '__Host-staff' : 'staff',
      defaultCookieAttributes: { secure: https, httpOnly: true, sameSite: 'lax', path: '/' },
    },
    plugins: [
      twoFactor({ issuer: options.siteName, schema: { twoFactor: { modelName: 'staff_two_factors' } } }),
      signInAudit(options),
    ],
  })
}

export type StaffAuth = ReturnType<typeof createStaffAuth>
