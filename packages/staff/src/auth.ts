import { createHash } from 'node:crypto'
import { betterAuth } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'
import { twoFactor } from 'better-auth/plugins'
import { passkey } from '@better-auth/passkey'
import type { AuthContext, BetterAuthPlugin } from 'better-auth'
import type { Kysely } from 'kysely'
import type { StaffKysely } from './db/database.ts'
import { recordAudit } from './audit.ts'
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './password-rule.ts'
import { DEVICE_COOKIE_SECONDS, newDeviceId, rememberDevice } from './devices.ts'
import { claimNotice } from './sign-in-notices.ts'
import { accountKey, addressKey, clearFailures, codesKey, forgetOldFailures, recordFailure, throttleStates, type ThrottleRule } from './sign-in-throttle.ts'

/**
 * The header carrying the client's address to the throttle and the audit log. The server sets it from the
 * address Express derived under TRUST_PROXY and replaces whatever a client sent under that name.
 */
export const STAFF_CLIENT_IP_HEADER = 'x-staff-client-ip'

/** The one answer to a failed sign-in: it does not say whether the e-mail address is known or the account active. */
export const SIGN_IN_FAILED_MESSAGE = 'The e-mail address or password is wrong.'
/** The error code of a wrong two-factor code: it ends the sign-in in progress, which starts again with the password. */
export const SIGN_IN_ENDED_CODE = 'SIGN_IN_ENDED'

/** better-auth's cookie naming a sign-in that waits for its second factor. */
const TWO_FACTOR_COOKIE = 'two_factor'
/** The cookie naming a passkey ceremony in progress (its challenge is kept in the verification table). */
const PASSKEY_CHALLENGE_COOKIE = 'passkey_challenge'
/** The one answer to a passkey that does not sign in: unknown, of a deactivated account, or a wrong signature. */
export const PASSKEY_SIGN_IN_FAILED_MESSAGE = 'That passkey did not sign you in. Try again, or sign in with your password and code.'

/** A signed-in staff member stays signed in while active; 8 hours without a request end the session. */
export const IDLE_EXPIRY_SECONDS = 8 * 60 * 60
/** How often activity pushes the expiry on (a write per session at most this often). */
const SESSION_REFRESH_SECONDS = 5 * 60
/** Password reset links work for 30 minutes. */
export const RESET_LINK_SECONDS = 30 * 60
/** A TOTP code is accepted in the 30-second step before and after its own: it is kept as used for longer than that. */
const USED_CODE_SECONDS = 5 * 60

export interface SignInLimits {
  /** Failed sign-ins from one client address, whatever the account. */
  perAddress: ThrottleRule
  /**
   * Failed sign-ins on one account, from anywhere. Its delay holds back only addresses that have failed themselves:
   * the right password and code from a connection that has not been failing still sign in, so nobody can lock an
   * owner out by failing on purpose.
   */
  perAccount: ThrottleRule
  /** Owners get an e-mail at this many failures on their account (and at each multiple of it). */
  alertOwnerAfter: number
  /** A member gets an e-mail once this many wrong codes followed their password, at most one per `noticeSeconds`. */
  alertMemberAfterCodes: number
  noticeSeconds: number
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perAddress: { freeFailures: 5, maxDelaySeconds: 15 * 60 },
  perAccount: { freeFailures: 5, maxDelaySeconds: 15 * 60 },
  alertOwnerAfter: 5,
  alertMemberAfterCodes: 3,
  noticeSeconds: 15 * 60,
}

/** A flood guard under the throttle: requests to the sign-in endpoints per address and minute, right or wrong. */
const SIGN_IN_REQUESTS_PER_MINUTE = 30
/** Second steps per address and minute, right or wrong; a wrong code also ends its sign-in and counts against the address. */
const CODE_REQUESTS_PER_MINUTE = 10

export interface StaffAuthOptions {
  kysely: StaffKysely
  dialect: 'sqlite' | 'postgres'
  /** Where better-auth believes it is mounted (`auth.handler` is called in-process only), as an absolute URL. */
  authUrl: string
  siteName: string
  secret: string
  signInLimits: SignInLimits
  /** Sends a new-password link: a reset, or an invited account's first password. */
  sendPasswordLink(link: { userId: string; email: string; name: string; token: string }): Promise<void>
  /** Tells the owner of an account that sign-ins to it keep failing. */
  alertOwner(user: { id: string; email: string; name: string }, failures: number): Promise<void>
  /** Tells a member of a sign-in from a browser their account has not been used from before. */
  alertNewDevice(user: { id: string; email: string; name: string }, signIn: { at: Date; ipAddress: string }): Promise<void>
  /** Tells a member that wrong two-factor codes keep following their password. */
  alertCodeFailures(user: { id: string; email: string; name: string }, failure: { failures: number; at: Date; ipAddress: string }): Promise<void>
}

/** Over https the cookies are `__Host-` prefixed (Secure, path /, no Domain): no subdomain can set or read them. */
function cookiePrefix(https: boolean): string {
  return https ? '__Host-staff' : 'staff'
}

/** What the sign-in hooks use of better-call's context to read and set the device cookie. */
interface DeviceCookieContext {
  getCookie(name: string): string | null | undefined
  setCookie(name: string, value: string, options: { maxAge: number; httpOnly: boolean; sameSite: 'lax'; path: string; secure: boolean }): unknown
}

/** A device id as `newDeviceId` makes it; anything else in the cookie is replaced. */
const DEVICE_ID = /^[\w-]{43}$/

function clientIp(headers: Headers | undefined): string {
  return headers?.get(STAFF_CLIENT_IP_HEADER) ?? 'unknown'
}

function emailOf(context: { body?: unknown }): string {
  return String((context.body as { email?: unknown } | undefined)?.email ?? '')
    .trim()
    .toLowerCase()
}

/** What is stored of a used TOTP code: enough to recognise it again, not the code. */
export function usedCodeHash(userId: string, code: string): string {
  return createHash('sha256').update(`${userId}:${code}`).digest('base64url')
}

function waitMessage(until: Date, now: Date): string {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`
  return `Too many failed sign-ins from this connection. Try again in ${wait}.`
}

/**
 * Sign-in bookkeeping around better-auth's endpoints: the throttle, deactivated accounts, TOTP codes used once, the
 * one failure message, and the audit entries of sign-ins.
 */
function signInGuard(options: StaffAuthOptions): BetterAuthPlugin {
  const { kysely, signInLimits } = options
  const isSignIn = (context: { path?: string }) => context.path === '/sign-in/email'
  const isTotp = (context: { path?: string }) => context.path === '/two-factor/verify-totp'
  const isSecondFactor = (context: { path?: string }) => isTotp(context) || context.path === '/two-factor/verify-backup-code'
  const isPasskeySignIn = (context: { path?: string }) => context.path === '/passkey/verify-authentication'

  async function refuse(email: string, ipAddress: string, reason: string, error: APIError): Promise<never> {
    await recordAudit(kysely, { actor: null, action: 'sign-in-refused', subjectType: 'staff-user', after: { email, reason }, ipAddress })
    throw error
  }

  /**
   * Each browser carries a random id in a long-lived cookie; a sign-in from one the account has not seen before tells
   * the member when and from where (a stolen password and code used elsewhere, or a session the member forgot).
   */
  async function checkDevice(context: DeviceCookieContext, user: { id: string; email: string; name: string }, ipAddress: string): Promise<void> {
    const https = new URL(options.authUrl).protocol === 'https:'
    const name = `${cookiePrefix(https)}.device`
    let deviceId = context.getCookie(name)
    if (!deviceId || !DEVICE_ID.test(deviceId)) {
      deviceId = newDeviceId()
      context.setCookie(name, deviceId, { maxAge: DEVICE_COOKIE_SECONDS, httpOnly: true, sameSite: 'lax', path: '/', secure: https })
    }
    const now = new Date()
    if (await rememberDevice(kysely, user.id, deviceId, now)) await options.alertNewDevice(user, { at: now, ipAddress })
  }

  async function signedIn(
    context: DeviceCookieContext,
    user: { id: string; email: string; name: string },
    ipAddress: string,
    method: 'password' | 'second-factor' | 'passkey',
  ): Promise<void> {
    await clearFailures(kysely, [addressKey(ipAddress), accountKey(user.email), codesKey(user.id)])
    await checkDevice(context, user, ipAddress)
    await recordAudit(kysely, {
      actor: { id: user.id, email: user.email },
      action: 'sign-in',
      subjectType: 'staff-user',
      subjectId: user.id,
      ...(method === 'second-factor' ? { after: { secondFactor: true } } : method === 'passkey' ? { after: { passkey: true } } : {}),
      ipAddress,
    })
  }

  /** The credential id a passkey sign-in names, as the browser sent it. */
  function credentialIdOf(context: { body?: unknown }): string {
    const response = (context.body as { response?: { id?: unknown } } | undefined)?.response
    return typeof response?.id === 'string' ? response.id : ''
  }

  /**
   * A wrong code after the right password ends that sign-in: its challenge is taken, so the next guess needs the
   * password again, and the address is slowed like one failing passwords. The account is not locked (its member, from
   * elsewhere, still signs in), but the member is told once codes keep failing.
   */
  async function wrongCode(
    context: { getSignedCookie: (name: string, secret: string) => Promise<string | null | false> },
    auth: AuthContext,
    ipAddress: string,
  ): Promise<boolean> {
    const challenge = await context.getSignedCookie(auth.createAuthCookie(TWO_FACTOR_COOKIE).name, auth.secret)
    const taken = challenge ? await auth.internalAdapter.consumeVerificationValue(challenge).catch(() => null) : null
    if (!challenge || !taken) {
      // No sign-in in progress (an ended one's page, or the setup step): nothing to end or count against an account.
      await recordAudit(kysely, { actor: null, action: 'sign-in-failed', subjectType: 'staff-user', after: { secondFactor: true }, ipAddress })
      return false
    }
    await auth.internalAdapter.deleteVerificationByIdentifier(`2fa-attempts-${challenge}`)
    const now = new Date()
    await forgetOldFailures(kysely, now)
    await recordFailure(kysely, addressKey(ipAddress), signInLimits.perAddress, now)
    const failures = await recordFailure(kysely, codesKey(taken.value), signInLimits.perAccount, now)
    const user = await kysely.selectFrom('staff_users').select(['id', 'email', 'name']).where('id', '=', taken.value).executeTakeFirst()
    await recordAudit(kysely, {
      actor: null,
      action: 'sign-in-failed',
      subjectType: 'staff-user',
      subjectId: taken.value,
      after: { secondFactor: true, signInEnded: true },
      ipAddress,
    })
    if (user && failures >= signInLimits.alertMemberAfterCodes && (await claimNotice(kysely, user.id, 'code-failures', now, signInLimits.noticeSeconds))) {
      await options.alertCodeFailures(user, { failures, at: now, ipAddress })
    }
    return true
  }

  return {
    id: 'staff-sign-in-guard',
    hooks: {
      before: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (context) => {
            const email = emailOf(context)
            const ipAddress = clientIp(context.headers)
            const now = new Date()
            const states = await throttleStates(kysely, [addressKey(ipAddress), accountKey(email)])
            const address = states.get(addressKey(ipAddress))
            const account = states.get(accountKey(email))
            if (address && address.blockedUntil > now) {
              await refuse(email, ipAddress, 'address-throttled', new APIError('TOO_MANY_REQUESTS', { message: waitMessage(address.blockedUntil, now) }))
            }
            // The account's delay holds back the addresses that have been failing, not one with a clean record.
            if (account && account.blockedUntil > now && address) {
              await refuse(email, ipAddress, 'account-throttled', new APIError('TOO_MANY_REQUESTS', { message: waitMessage(account.blockedUntil, now) }))
            }
            const user = await kysely.selectFrom('staff_users').select('deactivatedAt').where('email', '=', email).executeTakeFirst()
            if (user?.deactivatedAt) {
              await refuse(
                email,
                ipAddress,
                'deactivated',
                new APIError('UNAUTHORIZED', { message: SIGN_IN_FAILED_MESSAGE, code: 'INVALID_EMAIL_OR_PASSWORD' }),
              )
            }
          }),
        },
        {
          matcher: isSecondFactor,
          handler: createAuthMiddleware(async (context) => {
            const ipAddress = clientIp(context.headers)
            const now = new Date()
            const address = (await throttleStates(kysely, [addressKey(ipAddress)])).get(addressKey(ipAddress))
            if (address && address.blockedUntil > now) {
              await refuse('', ipAddress, 'address-throttled', new APIError('TOO_MANY_REQUESTS', { message: waitMessage(address.blockedUntil, now) }))
            }
          }),
        },
        {
          // A passkey is refused before its signature is checked when its account is deactivated: it stops at once.
          matcher: isPasskeySignIn,
          handler: createAuthMiddleware(async (context) => {
            const ipAddress = clientIp(context.headers)
            const now = new Date()
            const address = (await throttleStates(kysely, [addressKey(ipAddress)])).get(addressKey(ipAddress))
            if (address && address.blockedUntil > now) {
              await refuse('', ipAddress, 'address-throttled', new APIError('TOO_MANY_REQUESTS', { message: waitMessage(address.blockedUntil, now) }))
            }
            const owner = await kysely
              .selectFrom('staff_passkeys')
              .innerJoin('staff_users', 'staff_users.id', 'staff_passkeys.userId')
              .select(['staff_users.email', 'staff_users.deactivatedAt'])
              .where('staff_passkeys.credentialID', '=', credentialIdOf(context))
              .executeTakeFirst()
            if (owner?.deactivatedAt) {
              await refuse(owner.email, ipAddress, 'deactivated', new APIError('UNAUTHORIZED', { message: PASSKEY_SIGN_IN_FAILED_MESSAGE }))
            }
          }),
        },
      ],
      after: [
        {
          matcher: isPasskeySignIn,
          handler: createAuthMiddleware(async (context) => {
            const returned = context.context.returned
            const ipAddress = clientIp(context.headers)
            const now = new Date()
            if (returned instanceof APIError) {
              if (returned.statusCode === 429) return
              // An unknown credential, a stale challenge or a bad signature: counted against the address like a wrong password.
              await forgetOldFailures(kysely, now)
              await recordFailure(kysely, addressKey(ipAddress), signInLimits.perAddress, now)
              await recordAudit(kysely, { actor: null, action: 'sign-in-failed', subjectType: 'staff-user', after: { passkey: true }, ipAddress })
              throw new APIError('UNAUTHORIZED', { message: PASSKEY_SIGN_IN_FAILED_MESSAGE })
            }
            const session = context.context.newSession
            if (!session) return
            await kysely
              .updateTable('staff_passkeys')
              .set({ lastUsedAt: options.dialect === 'postgres' ? now : now.toISOString() })
              .where('credentialID', '=', credentialIdOf(context))
              .where('userId', '=', session.user.id)
              .execute()
            await signedIn(context, session.user, ipAddress, 'passkey')
          }),
        },
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (context) => {
            const email = emailOf(context)
            const returned = context.context.returned
            const ipAddress = clientIp(context.headers)
            if (returned instanceof APIError) {
              if (returned.statusCode !== 401) return
              const now = new Date()
              await forgetOldFailures(kysely, now)
              await recordFailure(kysely, addressKey(ipAddress), signInLimits.perAddress, now)
              const failures = await recordFailure(kysely, accountKey(email), signInLimits.perAccount, now)
              const user = await kysely.selectFrom('staff_users').select(['id', 'email', 'name', 'role']).where('email', '=', email).executeTakeFirst()
              await recordAudit(kysely, {
                actor: null,
                action: 'sign-in-failed',
                subjectType: 'staff-user',
                subjectId: user?.id ?? null,
                after: { email },
                ipAddress,
              })
              if (user?.role === 'owner' && failures % signInLimits.alertOwnerAfter === 0) await options.alertOwner(user, failures)
              throw new APIError('UNAUTHORIZED', { message: SIGN_IN_FAILED_MESSAGE, code: 'INVALID_EMAIL_OR_PASSWORD' })
            }
            // With two-factor on, the password alone opens no session: the sign-in is recorded when the code is.
            const session = context.context.newSession
            if (session) await signedIn(context, session.user, ipAddress, 'password')
          }),
        },
        {
          matcher: isSecondFactor,
          handler: createAuthMiddleware(async (context) => {
            const returned = context.context.returned
            const session = context.context.newSession
            const ipAddress = clientIp(context.headers)
            if (returned instanceof APIError) {
              if (returned.statusCode !== 401) return
              if (await wrongCode(context, context.context, ipAddress)) {
                throw new APIError('UNAUTHORIZED', { message: 'The code is wrong.', code: SIGN_IN_ENDED_CODE })
              }
              return
            }
            const user = session?.user ?? context.context.session?.user
            if (!user) return
            if (isTotp(context)) {
              // A code signs in once: a second use within its window, by anyone, is refused and its session ended.
              const code = String((context.body as { code?: unknown } | undefined)?.code ?? '')
              const now = new Date()
              await kysely
                .deleteFrom('staff_used_totp_codes')
                .where('used_at', '<', new Date(now.getTime() - USED_CODE_SECONDS * 1000).toISOString())
                .execute()
              const inserted = await kysely
                .insertInto('staff_used_totp_codes')
                .values({ user_id: user.id, code_hash: usedCodeHash(user.id, code), used_at: now.toISOString() })
                .onConflict((conflict) => conflict.columns(['user_id', 'code_hash']).doNothing())
                .executeTakeFirst()
              if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
                if (session && session.session.id !== context.context.session?.session.id) {
                  await kysely.deleteFrom('staff_sessions').where('id', '=', session.session.id).execute()
                }
                await recordAudit(kysely, {
                  actor: null,
                  action: 'sign-in-failed',
                  subjectType: 'staff-user',
                  subjectId: user.id,
                  after: { secondFactor: true, reason: 'code-used-before' },
                  ipAddress,
                })
                throw new APIError('UNAUTHORIZED', { message: 'This code was used already.', code: 'INVALID_CODE' })
              }
            }
            if (session && !context.context.session) await signedIn(context, session.user, ipAddress, 'second-factor')
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
      additionalFields: {
        role: { type: 'string', required: true, input: false, defaultValue: 'staff' },
        deactivatedAt: { type: 'date', required: false, input: false },
        twoFactorEnrolRequired: { type: 'boolean', required: false, input: false },
      },
    },
    session: {
      modelName: 'staff_sessions',
      expiresIn: IDLE_EXPIRY_SECONDS,
      updateAge: SESSION_REFRESH_SECONDS,
    },
    account: { modelName: 'staff_accounts' },
    // Reset tokens and two-factor challenges are found by a hash of their identifier: the database holds no usable link.
    verification: { modelName: 'staff_verifications', storeIdentifier: 'hashed' },
    emailAndPassword: {
      enabled: true,
      // Accounts come from the command line and from invitations, never from a public sign-up.
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: RESET_LINK_SECONDS,
      sendResetPassword: async ({ user, token }) => {
        await options.sendPasswordLink({ userId: user.id, email: user.email, name: user.name, token })
      },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'staff_rate_limits',
      customRules: {
        '/sign-in/email': { window: 60, max: SIGN_IN_REQUESTS_PER_MINUTE },
        '/two-factor/*': { window: 60, max: CODE_REQUESTS_PER_MINUTE },
        '/passkey/*': { window: 60, max: SIGN_IN_REQUESTS_PER_MINUTE },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [STAFF_CLIENT_IP_HEADER] },
      // better-auth skips its Origin (CSRF) check under NODE_ENV=test; the tests must see what production does.
      disableOriginCheck: false,
      useSecureCookies: false,
      cookiePrefix: cookiePrefix(https),
      defaultCookieAttributes: { secure: https, httpOnly: true, sameSite: 'lax', path: '/' },
    },
    plugins: [
      twoFactor({
        issuer: options.siteName,
        schema: { twoFactor: { modelName: 'staff_two_factors' } },
        // The library's lock refuses every code, the member's own included, after 10 wrong ones: anyone holding the
        // password could keep the member out. Here a wrong code ends only its own sign-in (signInGuard).
        accountLockout: { enabled: false },
      }),
      // A passkey signs in without the password and code: it is both factors (the device, and its PIN or biometric).
      passkey({
        rpID: authUrl.hostname,
        rpName: options.siteName,
        origin: authUrl.origin,
        schema: { passkey: { modelName: 'staff_passkeys' } },
        advanced: { webAuthnChallengeCookie: PASSKEY_CHALLENGE_COOKIE },
      }),
      signInGuard(options),
    ],
  })
}

export type StaffAuth = ReturnType<typeof createStaffAuth>
