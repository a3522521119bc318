import { CodedError, enqueueStaffMail, isEmailAddress, staffInvitationMail, staffPasswordResetMail, type CoreDatabase, type SiteLinks } from '@events/core'
import { APIError } from 'better-auth/api'
import type { Kysely } from 'kysely'
import { listAudit, recordAudit, type AuditActor, type AuditListOptions, type AuditPage, type AuditRecord } from './audit.ts'
import {
  DEFAULT_SIGN_IN_LIMITS,
  MIN_PASSWORD_LENGTH,
  RESET_LINK_SECONDS,
  SIGN_IN_FAILED_MESSAGE,
  STAFF_CLIENT_IP_HEADER,
  createStaffAuth,
  type SignInLimits,
  type StaffAuth,
} from './auth.ts'
import type { StaffKysely } from './db/database.ts'
import type { StaffRole } from './db/tables/users.ts'
import { migrateStaffTables } from './db/migrate.ts'
import { REQUIRE_TWO_FACTOR, authSecret, readSetting, writeSetting } from './settings.ts'

export const STAFF_ROLES: readonly StaffRole[] = ['owner', 'staff']

/** Invitation links work for a week: a new colleague may not read the e-mail the same day. */
export const INVITATION_LINK_SECONDS = 7 * 24 * 60 * 60

const WRONG_CODE_MESSAGE = 'The code is wrong: type the six digits your app shows now.'

/** A redirect within the site: the link's path alone, so it answers on whichever address the request came by. */
function pathOf(link: string): string {
  return link.slice(new URL(link).origin.length)
}

export interface StaffUser {
  id: string
  email: string
  name: string
  role: StaffRole
  twoFactorEnabled: boolean
}

export interface StaffSession {
  user: StaffUser
  sessionId: string
  expiresAt: Date
  /** Set-Cookie headers the route must send back (a session whose expiry was pushed on renews its cookie). */
  headers: Headers
}

export type StaffErrorCode =
  | 'invalid-email'
  | 'invalid-name'
  | 'invalid-role'
  | 'weak-password'
  | 'duplicate-email'
  | 'wrong-password'
  | 'wrong-code'
  | 'owner-only'

/** A refused account operation, with a one-line message for the person at the screen or the command line. */
export class StaffAccountError extends CodedError<StaffErrorCode> {
  constructor(code: StaffErrorCode, message: string) {
    super('StaffAccountError', code, message)
  }
}

export type SignInResult =
  | { status: 'signed-in'; headers: Headers }
  | { status: 'two-factor-required'; headers: Headers }
  | { status: 'refused'; reason: 'wrong-credentials' | 'rate-limited' | 'cross-site'; message: string; headers: Headers }

export interface StaffOptions {
  /** The core's open database: staff tables live beside the core's, through the same pool or connection. */
  db: CoreDatabase
  /** The site's pages: the links in e-mails, the guard's redirects and where better-auth's endpoints are mounted. */
  links: SiteLinks
  /** The name in e-mails and in the authenticator app. */
  siteName?: string
  /** The cookie signing key; without it one is generated once and kept in the database. */
  secret?: string
  signInLimits?: SignInLimits
  /** Told when e-mail was queued, so the outbox worker can send it at once. */
  onMailQueued?: () => void
  /** False leaves the staff tables' migrations to `pnpm db:migrate` (MIGRATE_ON_START=0); true by default. */
  migrate?: boolean
}

export interface Staff {
  /** better-auth itself: mount `auth.handler` for requests under the site's `links.staffAuth()`. */
  auth: StaffAuth
  signIn(request: Request, credentials: { email: string; password: string }): Promise<SignInResult>
  /** The second step of a sign-in with two-factor on: the code from the authenticator app. */
  verifyTwoFactorCode(request: Request, code: string): Promise<SignInResult>
  /** Ends this browser's session; the headers clear its cookie. */
  signOut(request: Request): Promise<Headers>
  /** Ends every session of the signed-in staff member, on every device. */
  signOutEverywhere(request: Request): Promise<Headers>
  getSession(request: Request): Promise<StaffSession | null>
  requireStaff(request: Request, options?: RequireStaffOptions): Promise<StaffSession>
  twoFactorSetupRequired(user: StaffUser): Promise<boolean>
  isTwoFactorRequired(): Promise<boolean>
  setTwoFactorRequired(actor: StaffUser, required: boolean): Promise<void>
  /** Starts TOTP for the signed-in user (their password again): the otpauth:// URI for the QR code and backup codes. */
  beginTwoFactorSetup(request: Request, password: string): Promise<{ totpURI: string; backupCodes: string[] }>
  /** Turns two-factor on once the user has typed a code from their app. */
  confirmTwoFactorSetup(request: Request, code: string): Promise<Headers>
  /** Turns two-factor off for the signed-in user (their password again). */
  disableTwoFactor(request: Request, password: string): Promise<Headers>
  /** Every staff account, owners first, then by name. */
  listStaff(): Promise<StaffUser[]>
  createUser(input: NewStaffUser, actor?: AuditActor | null): Promise<StaffUser>
  inviteStaff(actor: StaffUser, input: Omit<NewStaffUser, 'password'>): Promise<StaffUser>
  requestPasswordReset(request: Request, email: string): Promise<void>
  /** Changes the signed-in member's password (the current one again) and ends their other sessions. */
  changePassword(request: Request, passwords: { currentPassword: string; newPassword: string }): Promise<Headers>
  /** Sets a new password with the token of a reset or invitation link; every session of the user ends. */
  resetPassword(token: string, newPassword: string): Promise<{ ok: true } | { ok: false; message: string }>
  recordAudit(record: AuditRecord): Promise<void>
  listAudit(options?: AuditListOptions): Promise<AuditPage>
}

export interface NewStaffUser {
  email: string
  name: string
  role: StaffRole
  password: string
}

export interface RequireStaffOptions {
  /** `owner` admits owners only; without it any staff member. */
  role?: StaffRole
  /** Without a session: redirect to the sign-in page (pages) or answer 401 (resource routes). */
  unauthenticated?: 'redirect' | 'status'
  /** For the two-factor setup page itself, which a member who must set it up has to reach. */
  allowPendingTwoFactorSetup?: boolean
}

function staffUserOf(user: { id: string; email: string; name: string; role?: unknown; twoFactorEnabled?: unknown }): StaffUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role === 'owner' ? 'owner' : 'staff',
    twoFactorEnabled: user.twoFactorEnabled === true || user.twoFactorEnabled === 1,
  }
}

function actorOf(user: StaffUser): AuditActor {
  return { id: user.id, email: user.email }
}

/**
 * The headers better-auth needs from the visitor's request: cookies, client address, agent, and where the request
 * came from, so that better-auth's CSRF checks judge the browser's request rather than this package's call.
 */
function forwardedHeaders(request: Request): Headers {
  const headers = new Headers({ 'content-type': 'application/json' })
  for (const name of ['cookie', 'user-agent', STAFF_CLIENT_IP_HEADER, 'origin', 'referer', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest']) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  return headers
}

function setCookieHeaders(response: Response): Headers {
  const headers = new Headers()
  for (const cookie of response.headers.getSetCookie()) headers.append('set-cookie', cookie)
  return headers
}

/** A link's lifetime as the e-mail states it: "7 days", "1 hour". */
function durationInWords(seconds: number): string {
  const [amount, unit] = seconds % 86_400 === 0 ? [seconds / 86_400, 'day'] : [Math.round(seconds / 3600), 'hour']
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`
}

function checkNewUser(input: Omit<NewStaffUser, 'password'>): { email: string; name: string } {
  const email = input.email.trim().toLowerCase()
  const name = input.name.trim()
  if (!isEmailAddress(email)) throw new StaffAccountError('invalid-email', `Not an e-mail address: ${input.email}`)
  if (name === '') throw new StaffAccountError('invalid-name', 'The name is empty.')
  if (!STAFF_ROLES.includes(input.role)) throw new StaffAccountError('invalid-role', `The role must be owner or staff, not ${String(input.role)}.`)
  return { email, name }
}

function checkOwner(actor: StaffUser): void {
  if (actor.role !== 'owner') throw new StaffAccountError('owner-only', 'Only an owner may do this.')
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new StaffAccountError('weak-password', `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`)
  }
}

/** Brings the staff tables up to date in the core's database and builds the staff accounts service over them. */
export async function createStaff(options: StaffOptions): Promise<Staff> {
  // The staff tables are this package's own; the core's Database type does not name them.
  const kysely = options.db.kysely as unknown as StaffKysely
  if (options.migrate ?? true) await migrateStaffTables(kysely as unknown as Kysely<unknown>, options.db.dialect)
  const { links } = options
  const siteName = options.siteName ?? 'Events'
  const authBase = links.staffAuth()

  async function hasPassword(userId: string): Promise<boolean> {
    const account = await kysely.selectFrom('staff_accounts').select('id').where('userId', '=', userId).where('providerId', '=', 'credential').executeTakeFirst()
    return account !== undefined
  }

  const auth = createStaffAuth({
    kysely,
    dialect: options.db.dialect,
    authUrl: authBase,
    siteName,
    secret: options.secret ?? (await authSecret(kysely, new Date())),
    signInLimits: options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
    async sendPasswordLink({ userId, email, name, token }) {
      // An account that never had a password was invited: its link says so and works for longer than a reset link.
      const invitation = !(await hasPassword(userId))
      const link = links.staffSetPassword(token)
      const now = new Date()
      if (invitation) {
        const context = await auth.$context
        await context.internalAdapter.updateVerificationByIdentifier(`reset-password:${token}`, {
          expiresAt: new Date(now.getTime() + INVITATION_LINK_SECONDS * 1000),
        })
      }
      const mail = invitation
        ? staffInvitationMail({ to: email, name, siteName, link, validFor: durationInWords(INVITATION_LINK_SECONDS) })
        : staffPasswordResetMail({ to: email, name, siteName, link, validFor: durationInWords(RESET_LINK_SECONDS) })
      await enqueueStaffMail(options.db, mail, { topic: invitation ? 'staff-invitation' : 'staff-password-reset', sourceId: userId, now })
      options.onMailQueued?.()
    },
  })

  /** Calls a better-auth endpoint over its HTTP handler, so its rate limiter and origin checks apply. */
  async function callAuth(request: Request, path: string, body: unknown): Promise<Response> {
    return auth.handler(new Request(`${authBase}${path}`, { method: 'POST', headers: forwardedHeaders(request), body: JSON.stringify(body) }))
  }

  async function signInResult(response: Response, failureMessage: string): Promise<SignInResult> {
    const headers = setCookieHeaders(response)
    const body = (await response.json().catch(() => ({}))) as { twoFactorRedirect?: boolean }
    if (response.status === 429) {
      return { status: 'refused', reason: 'rate-limited', message: 'Too many sign-in attempts. Try again later.', headers }
    }
    if (response.status === 403) {
      return { status: 'refused', reason: 'cross-site', message: 'Sign in from the back office’s own sign-in page.', headers }
    }
    if (!response.ok) return { status: 'refused', reason: 'wrong-credentials', message: failureMessage, headers }
    return { status: body.twoFactorRedirect ? 'two-factor-required' : 'signed-in', headers }
  }

  async function getSession(request: Request): Promise<StaffSession | null> {
    const { headers, response } = await auth.api.getSession({ headers: request.headers, returnHeaders: true })
    if (!response) return null
    return { user: staffUserOf(response.user), sessionId: response.session.id, expiresAt: new Date(response.session.expiresAt), headers }
  }

  async function isTwoFactorRequired(): Promise<boolean> {
    return (await readSetting(kysely, REQUIRE_TWO_FACTOR)) === true
  }

  async function twoFactorSetupRequired(user: StaffUser): Promise<boolean> {
    return !user.twoFactorEnabled && (await isTwoFactorRequired())
  }

  async function createUser(input: NewStaffUser, actor: AuditActor | null = null): Promise<StaffUser> {
    const { email, name } = checkNewUser(input)
    checkPassword(input.password)
    const user = await insertUser(email, name, input.role)
    const context = await auth.$context
    await context.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: await context.password.hash(input.password) })
    await recordAudit(kysely, { actor, action: 'staff-created', subjectType: 'staff-user', subjectId: user.id, after: { email, name, role: input.role } })
    return user
  }

  async function insertUser(email: string, name: string, role: StaffRole): Promise<StaffUser> {
    const existing = await kysely.selectFrom('staff_users').select('id').where('email', '=', email).executeTakeFirst()
    if (existing) throw new StaffAccountError('duplicate-email', `A staff account with the e-mail address ${email} already exists.`)
    const context = await auth.$context
    const user = await context.internalAdapter.createUser({ email, name, role, emailVerified: true }, { method: 'admin' })
    return staffUserOf(user)
  }

  return {
    auth,
    async signIn(request, credentials) {
      const response = await callAuth(request, '/sign-in/email', { email: credentials.email.trim().toLowerCase(), password: credentials.password })
      return signInResult(response, SIGN_IN_FAILED_MESSAGE)
    },
    async verifyTwoFactorCode(request, code) {
      return signInResult(await callAuth(request, '/two-factor/verify-totp', { code: code.replace(/\s+/g, '') }), WRONG_CODE_MESSAGE)
    },
    async signOut(request) {
      const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true })
      return headers
    },
    async signOutEverywhere(request) {
      const session = await getSession(request)
      if (session) {
        await auth.api.revokeSessions({ headers: request.headers })
        await recordAudit(kysely, { actor: actorOf(session.user), action: 'signed-out-everywhere', subjectType: 'staff-user', subjectId: session.user.id })
      }
      const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true })
      return headers
    },
    getSession,
    async requireStaff(request, guard = {}) {
      const session = await getSession(request)
      if (!session) {
        if (guard.unauthenticated === 'status') throw new Response('Sign in to the back office.', { status: 401 })
        const url = new URL(request.url)
        const redirectTo = `${url.pathname}${url.search}`
        throw new Response(null, { status: 302, headers: { location: pathOf(links.staffSignIn(redirectTo)) } })
      }
      if (!guard.allowPendingTwoFactorSetup && (await twoFactorSetupRequired(session.user))) {
        throw new Response(null, { status: 302, headers: { location: pathOf(links.staffTwoFactorSetup()) } })
      }
      if (guard.role === 'owner' && session.user.role !== 'owner') {
        throw new Response('Only an owner may do this.', { status: 403 })
      }
      return session
    },
    twoFactorSetupRequired,
    isTwoFactorRequired,
    async setTwoFactorRequired(actor, required) {
      checkOwner(actor)
      const before = await isTwoFactorRequired()
      await writeSetting(kysely, REQUIRE_TWO_FACTOR, required, new Date())
      await recordAudit(kysely, { actor: actorOf(actor), action: 'setting-changed', subjectType: 'staff-setting', subjectId: REQUIRE_TWO_FACTOR, before, after: required })
    },
    async beginTwoFactorSetup(request, password) {
      const result = await auth.api.enableTwoFactor({ body: { password, method: 'totp' }, headers: request.headers }).catch((error: unknown) => {
        if (error instanceof APIError && error.statusCode === 400) throw new StaffAccountError('wrong-password', 'The password is wrong.')
        throw error
      })
      if (result.method !== 'totp') throw new Error('better-auth answered a TOTP setup with another method')
      return { totpURI: result.totpURI, backupCodes: result.backupCodes }
    },
    async confirmTwoFactorSetup(request, code) {
      const session = await getSession(request)
      const { headers } = await auth.api
        .verifyTOTP({ body: { code: code.replace(/\s+/g, '') }, headers: request.headers, returnHeaders: true })
        .catch((error: unknown) => {
          if (error instanceof APIError && error.statusCode < 500) throw new StaffAccountError('wrong-code', WRONG_CODE_MESSAGE)
          throw error
        })
      if (session) {
        await recordAudit(kysely, { actor: actorOf(session.user), action: 'two-factor-enabled', subjectType: 'staff-user', subjectId: session.user.id, before: false, after: true })
      }
      return headers
    },
    async disableTwoFactor(request, password) {
      const session = await getSession(request)
      const { headers } = await auth.api
        .disableTwoFactor({ body: { password }, headers: request.headers, returnHeaders: true })
        .catch((error: unknown) => {
          if (error instanceof APIError && error.statusCode === 400) throw new StaffAccountError('wrong-password', 'The password is wrong.')
          throw error
        })
      if (session) {
        await recordAudit(kysely, { actor: actorOf(session.user), action: 'two-factor-disabled', subjectType: 'staff-user', subjectId: session.user.id, before: true, after: false })
      }
      return headers
    },
    async listStaff() {
      const rows = await kysely.selectFrom('staff_users').select(['id', 'email', 'name', 'role', 'twoFactorEnabled']).orderBy('role', 'asc').orderBy('name', 'asc').execute()
      return rows.map(staffUserOf)
    },
    createUser,
    async inviteStaff(actor, input) {
      checkOwner(actor)
      const { email, name } = checkNewUser(input)
      const user = await insertUser(email, name, input.role)
      await recordAudit(kysely, { actor: actorOf(actor), action: 'staff-invited', subjectType: 'staff-user', subjectId: user.id, after: { email, name, role: input.role } })
      await auth.api.requestPasswordReset({ body: { email } })
      return user
    },
    async requestPasswordReset(request, email) {
      // The answer is the same whether or not the address has an account.
      await callAuth(request, '/request-password-reset', { email: email.trim().toLowerCase() })
    },
    async changePassword(request, { currentPassword, newPassword }) {
      checkPassword(newPassword)
      const { headers } = await auth.api
        .changePassword({ body: { currentPassword, newPassword, revokeOtherSessions: true }, headers: request.headers, returnHeaders: true })
        .catch((error: unknown) => {
          if (error instanceof APIError && error.statusCode === 400) throw new StaffAccountError('wrong-password', 'The current password is wrong.')
          throw error
        })
      return headers
    },
    async resetPassword(token, newPassword) {
      if (newPassword.length < MIN_PASSWORD_LENGTH) return { ok: false, message: `Use at least ${MIN_PASSWORD_LENGTH} characters.` }
      try {
        await auth.api.resetPassword({ body: { token, newPassword } })
        return { ok: true }
      } catch (error) {
        if (error instanceof APIError && error.statusCode === 400) return { ok: false, message: 'This link has expired or was already used. Ask for a new one.' }
        throw error
      }
    },
    recordAudit: (record) => recordAudit(kysely, record),
    listAudit: (page) => listAudit(kysely, page),
  }
}

