import {
  CodedError,
  enqueueStaffMail,
  isEmailAddress,
  singleLine,
  staffInvitationMail,
  staffPasswordResetMail,
  staffSignInFailuresMail,
  staffCodeFailuresMail,
  staffNewDeviceMail,
  type CoreDatabase,
  type SiteLinks,
  roleAllows,
  STAFF_ROLE_ORDER,
} from '@events/core'
import { APIError } from 'better-auth/api'
import { createOTP } from '@better-auth/utils/otp'
import { generateRandomString, symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'
import type { Kysely, Transaction } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { listAudit, recordAudit, type AuditActor, type AuditListOptions, type AuditPage, type AuditRecord } from './audit.ts'
import {
  DEFAULT_SIGN_IN_LIMITS,
  RESET_LINK_SECONDS,
  SIGN_IN_ENDED_CODE,
  PASSKEY_SIGN_IN_FAILED_MESSAGE,
  SIGN_IN_FAILED_MESSAGE,
  STAFF_CLIENT_IP_HEADER,
  createStaffAuth,
  usedCodeHash,
  type SignInLimits,
  type StaffAuth,
} from './auth.ts'
import type { StaffDatabase, StaffKysely } from './db/database.ts'
import type { StaffRole } from './db/tables/users.ts'
import { migrateStaffTables } from './db/migrate.ts'
import { passwordProblem } from './password-rule.ts'
import { accountKey, addressKey, codesKey } from './sign-in-throttle.ts'
import { REQUIRE_TWO_FACTOR, authSecret, readSetting, writeSetting } from './settings.ts'

/** The roles from the most to the least trusted; core's staff commands re-check them with the same `roleAllows`. */
export const STAFF_ROLES: readonly StaffRole[] = STAFF_ROLE_ORDER
export { roleAllows }

/** Roles that must sign in with two-factor, whatever the setting for everyone says. */
const TWO_FACTOR_ROLES: readonly StaffRole[] = ['owner', 'manager']

/** Invitation links work for a week: a new colleague may not read the e-mail the same day. */
export const INVITATION_LINK_SECONDS = 7 * 24 * 60 * 60

const WRONG_CODE_MESSAGE = 'The code is wrong: type the six digits your app shows now, or one of your backup codes.'
/** A wrong code ends its sign-in: the next try starts with the password, so the code step cannot be guessed at. */
const SIGN_IN_ENDED_MESSAGE =
  'The code is wrong, so this sign-in has ended. Sign in again with your password, then type the six digits your app shows now, or one of your backup codes.'
const USED_CODE_MESSAGE =
  'That code was used already, so this sign-in has ended. Sign in again with your password, then wait for the next code your app shows, or use a backup code.'
const STALE_SIGN_IN_MESSAGE = 'This sign-in has ended: sign in again with your password.'
const LAST_OWNER_MESSAGE = 'No other active owner has signed in yet: make someone else an owner and let them sign in before this account stops being one.'
const LINK_EXPIRED_MESSAGE = 'This link has expired or was already used. Ask for a new one.'
/** What a visitor reads where a passkey cannot be made or used: without JavaScript, or in a browser without WebAuthn. */
export const PASSKEY_UNAVAILABLE_MESSAGE =
  'Passkeys need JavaScript and a browser that supports them. Sign in with your password and code instead, or try another browser.'
const PASSKEY_NOT_ADDED_MESSAGE = 'The passkey was not added: your device did not confirm it in time. Try again.'
/** A passkey's name as the account page lists it: one line, short enough for a phone's table. */
const MAX_PASSKEY_NAME_LENGTH = 60
/** A six-digit code comes from the app; anything else typed at the code step is taken for a backup code. */
const TOTP_CODE = /^\d{6}$/

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
  /** An owner reset their two-factor: they enrol again before anything else. */
  twoFactorEnrolRequired: boolean
}

/** A staff account as the owners' list shows it. */
export interface StaffMember extends StaffUser {
  deactivated: boolean
  /** Invited, and the password not chosen yet. */
  invitationPending: boolean
}

/** One of the signed-in member's passkeys. */
export interface OwnPasskey {
  id: string
  name: string
  createdAt: Date | null
  lastUsedAt: Date | null
}

/** WebAuthn options for the browser's `navigator.credentials` call, and the cookie naming their challenge. */
export interface PasskeyCeremony {
  options: unknown
  headers: Headers
}

/** One of the signed-in member's own sessions (a browser or device). */
export interface OwnSession {
  id: string
  createdAt: Date
  lastUsedAt: Date
  ipAddress: string | null
  userAgent: string | null
  current: boolean
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
  | 'unknown-member'
  | 'last-owner'
  | 'not-invited'
  | 'unknown-session'
  | 'two-factor-off'
  | 'passkey-unavailable'
  | 'unknown-passkey'

const BACKUP_CODE_COUNT = 10

/** Ten single-use codes in the two-factor plugin's own form (xxxxx-xxxxx, letters and digits). */
function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => generateRandomString(10, 'a-z', '0-9', 'A-Z')).map((code) => `${code.slice(0, 5)}-${code.slice(5)}`)
}

/** A refused account operation, with a one-line message for the person at the screen or the command line. */
export class StaffAccountError extends CodedError<StaffErrorCode> {
  constructor(code: StaffErrorCode, message: string) {
    super('StaffAccountError', code, message)
  }
}

export type SignInResult =
  | { status: 'signed-in'; headers: Headers }
  | { status: 'two-factor-required'; headers: Headers }
  | {
      status: 'refused'
      /** `sign-in-ended`: the code step is over, and the member starts again with the password. */
      reason: 'wrong-credentials' | 'rate-limited' | 'cross-site' | 'sign-in-ended'
      message: string
      headers: Headers
    }

/** What an owner (or the command line, with no actor) may do to another account. */
export type MemberChange =
  | { kind: 'deactivate' }
  | { kind: 'reactivate' }
  | { kind: 'set-role'; role: StaffRole }
  | { kind: 'reset-two-factor' }
  | { kind: 'resend-invitation' }
  | { kind: 'lift-sign-in-locks' }

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
  /** The company's name as the site shows it, which no password may contain; the site name when left out. */
  companyName?: () => Promise<string>
}

export interface Staff {
  /** better-auth itself, called in-process only: none of its endpoints is mounted on the site. */
  auth: StaffAuth
  signIn(request: Request, credentials: { email: string; password: string }): Promise<SignInResult>
  /** The second step of a sign-in with two-factor on: the code from the authenticator app, or a backup code (once each). */
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
  listStaff(): Promise<StaffMember[]>
  /** The account with this e-mail address, or null. */
  findMember(email: string): Promise<StaffMember | null>
  /**
   * An owner's change to another account (deactivate, reactivate, set its role, reset its two-factor, resend its
   * invitation), written with its audit entry in one transaction; `actor` null is the command line.
   */
  changeMember(actor: StaffUser | null, memberId: string, change: MemberChange): Promise<StaffMember>
  /** The signed-in member's sessions, newest first. */
  listOwnSessions(request: Request): Promise<OwnSession[]>
  /** Ends one of the signed-in member's other sessions. */
  endOwnSession(request: Request, sessionId: string): Promise<void>
  /** The signed-in member's passkeys, newest first. */
  listPasskeys(request: Request): Promise<OwnPasskey[]>
  /** Starts adding a passkey to the signed-in member's account (their password again): options for the browser. */
  beginAddPasskey(request: Request, password: string): Promise<PasskeyCeremony>
  /** Keeps the passkey the browser made with `beginAddPasskey`'s options (its JSON) under the member's name for it. */
  addPasskey(request: Request, passkey: { name: string; response: string }): Promise<void>
  /** Removes one of the signed-in member's passkeys: it signs nobody in from then on. */
  removePasskey(request: Request, passkeyId: string): Promise<void>
  /** Starts a sign-in with a passkey: options for the browser, which lets the member pick one of theirs. */
  beginPasskeySignIn(request: Request): Promise<PasskeyCeremony>
  /** Signs in with the browser's answer (its JSON) to `beginPasskeySignIn`'s options: no password and no code. */
  signInWithPasskey(request: Request, response: string): Promise<SignInResult>
  /** New backup codes for the signed-in member (their password again); the old ones stop working. */
  regenerateBackupCodes(request: Request, password: string): Promise<string[]>
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
  /** The least role admitted (`owner`: owners only; `manager`: managers and owners); without it any staff member. */
  role?: StaffRole
  /** Without a session: redirect to the sign-in page (pages) or answer 401 (resource routes). */
  unauthenticated?: 'redirect' | 'status'
  /** For the two-factor setup page itself, which a member who must set it up has to reach. */
  allowPendingTwoFactorSetup?: boolean
}

const isTrue = (value: unknown) => value === true || value === 1

function roleOf(value: unknown): StaffRole {
  return STAFF_ROLES.find((role) => role === value) ?? 'staff'
}

function staffUserOf(user: {
  id: string
  email: string
  name: string
  role?: unknown
  twoFactorEnabled?: unknown
  twoFactorEnrolRequired?: unknown
}): StaffUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: roleOf(user.role),
    twoFactorEnabled: isTrue(user.twoFactorEnabled),
    twoFactorEnrolRequired: isTrue(user.twoFactorEnrolRequired),
  }
}

function roleName(role: StaffRole): string {
  return role === 'owner' ? 'an owner' : role === 'manager' ? 'a manager' : 'staff'
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

/** A link's lifetime as the e-mail states it: "7 days", "1 hour", "30 minutes". */
function durationInWords(seconds: number): string {
  const [amount, unit] =
    seconds % 86_400 === 0 ? [seconds / 86_400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : [Math.round(seconds / 60), 'minute']
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`
}

function checkNewUser(input: Omit<NewStaffUser, 'password'>): { email: string; name: string } {
  const email = input.email.trim().toLowerCase()
  // One line, without bidirectional controls: a name shown in the back office and the audit log as what it is.
  const name = singleLine(input.name)
  if (!isEmailAddress(email)) throw new StaffAccountError('invalid-email', `Not an e-mail address: ${input.email}`)
  if (name === '') throw new StaffAccountError('invalid-name', 'The name is empty.')
  if (!STAFF_ROLES.includes(input.role)) throw new StaffAccountError('invalid-role', `The role must be owner, manager or staff, not ${String(input.role)}.`)
  return { email, name }
}

function checkOwner(actor: StaffUser | null): void {
  if (actor && actor.role !== 'owner') throw new StaffAccountError('owner-only', 'Only an owner may do this.')
}

/** Brings the staff tables up to date in the core's database and builds the staff accounts service over them. */
export async function createStaff(options: StaffOptions): Promise<Staff> {
  // The staff tables are this package's own; the core's Database type does not name them.
  const kysely = options.db.kysely as unknown as StaffKysely
  const { dialect } = options.db
  if (options.migrate ?? true) await migrateStaffTables(kysely as unknown as Kysely<unknown>, dialect)
  const { links } = options
  const siteName = options.siteName ?? 'Events'
  const companyName = options.companyName ?? (async () => siteName)
  const authBase = links.staffAuth()
  /** A date as better-auth stores it: timestamptz on PostgreSQL, ISO text on SQLite. */
  const storedDate = (date: Date) => (dialect === 'postgres' ? date : date.toISOString())
  const storedBoolean = (value: boolean) => (dialect === 'postgres' ? value : value ? 1 : 0)

  async function hasPassword(userId: string): Promise<boolean> {
    const account = await kysely
      .selectFrom('staff_accounts')
      .select('id')
      .where('userId', '=', userId)
      .where('providerId', '=', 'credential')
      .executeTakeFirst()
    return account !== undefined
  }

  async function checkPassword(password: string, email: string, name: string): Promise<void> {
    const problem = passwordProblem(password, { email, name, companyName: await companyName() })
    if (problem) throw new StaffAccountError('weak-password', problem)
  }

  async function queueMail(...args: Parameters<typeof enqueueStaffMail> extends [unknown, ...infer Rest] ? Rest : never): Promise<void> {
    await enqueueStaffMail(options.db, ...args)
    options.onMailQueued?.()
  }

  const auth = createStaffAuth({
    kysely,
    dialect,
    authUrl: authBase,
    siteName,
    secret: options.secret ?? (await authSecret(kysely, new Date())),
    signInLimits: options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS,
    async sendPasswordLink({ userId, email, name, token }) {
      const context = await auth.$context
      const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`)
      // A newer link makes every earlier one (and any half-done two-factor sign-in) of the account useless.
      if (verification) await kysely.deleteFrom('staff_verifications').where('value', '=', userId).where('id', '!=', verification.id).execute()
      // An account that never had a password was invited: its link says so and works for longer than a reset link.
      const invitation = !(await hasPassword(userId))
      const link = links.staffSetPassword(token)
      const now = new Date()
      if (invitation) {
        await context.internalAdapter.updateVerificationByIdentifier(`reset-password:${token}`, {
          expiresAt: new Date(now.getTime() + INVITATION_LINK_SECONDS * 1000),
        })
      }
      const mail = invitation
        ? staffInvitationMail({ to: email, name, siteName, link, validFor: durationInWords(INVITATION_LINK_SECONDS) })
        : staffPasswordResetMail({ to: email, name, siteName, link, validFor: durationInWords(RESET_LINK_SECONDS) })
      await queueMail(mail, { topic: invitation ? 'staff-invitation' : 'staff-password-reset', sourceId: userId, now })
    },
    async alertNewDevice(user, signIn) {
      await queueMail(staffNewDeviceMail({ to: user.email, name: user.name, siteName, ...signIn }), {
        topic: 'staff-new-device',
        sourceId: user.id,
        now: signIn.at,
      })
    },
    async alertCodeFailures(user, failure) {
      await queueMail(staffCodeFailuresMail({ to: user.email, name: user.name, siteName, ...failure }), {
        topic: 'staff-code-failures',
        sourceId: user.id,
        now: failure.at,
      })
    },
    async alertOwner(user, failures) {
      await queueMail(staffSignInFailuresMail({ to: user.email, name: user.name, siteName, failures }), {
        topic: 'staff-sign-in-failures',
        sourceId: user.id,
        now: new Date(),
      })
    },
  })

  /** Calls a better-auth endpoint over its HTTP handler, so its rate limiter and origin checks apply. */
  async function callAuth(request: Request, path: string, body: unknown): Promise<Response> {
    return auth.handler(new Request(`${authBase}${path}`, { method: 'POST', headers: forwardedHeaders(request), body: JSON.stringify(body) }))
  }

  /** Asks better-auth for a passkey ceremony's options; they and the challenge cookie go to the browser. */
  async function passkeyCeremony(request: Request, path: string): Promise<PasskeyCeremony> {
    const response = await auth.handler(new Request(`${authBase}${path}`, { method: 'GET', headers: forwardedHeaders(request) }))
    if (response.status === 429) throw new StaffAccountError('passkey-unavailable', 'Too many passkey attempts from this connection. Try again in a minute.')
    if (!response.ok) throw new StaffAccountError('unknown-session', 'You are signed out: sign in again.')
    return { options: await response.json(), headers: setCookieHeaders(response) }
  }

  /** The browser's answer to a passkey ceremony, as its JSON arrives in a form field; null for anything else. */
  function ceremonyResponse(json: string): Record<string, unknown> | null {
    try {
      const parsed: unknown = JSON.parse(json)
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
    } catch {
      return null
    }
  }

  async function signInResult(response: Response, failureMessage: string): Promise<SignInResult> {
    const headers = setCookieHeaders(response)
    const body = (await response.json().catch(() => ({}))) as { twoFactorRedirect?: boolean; message?: string; code?: string }
    if (response.status === 429) {
      return { status: 'refused', reason: 'rate-limited', message: body.message ?? 'Too many sign-in attempts. Try again later.', headers }
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
    // Deactivation ends the sessions in the same transaction; this refuses one that slipped past it all the same.
    if ((response.user as { deactivatedAt?: unknown }).deactivatedAt) return null
    return { user: staffUserOf(response.user), sessionId: response.session.id, expiresAt: new Date(response.session.expiresAt), headers }
  }

  async function requireSession(request: Request): Promise<StaffSession> {
    const session = await getSession(request)
    if (!session) throw new StaffAccountError('unknown-session', 'You are signed out: sign in again.')
    return session
  }

  /** Refuses with `message` unless `password` is the account's current one (a step-up before changing sign-in). */
  async function checkCurrentPassword(userId: string, password: string, message: string): Promise<void> {
    const context = await auth.$context
    const account = await kysely
      .selectFrom('staff_accounts')
      .select('password')
      .where('userId', '=', userId)
      .where('providerId', '=', 'credential')
      .executeTakeFirst()
    if (!account?.password || !(await context.password.verify({ hash: account.password, password }))) {
      throw new StaffAccountError('wrong-password', message)
    }
  }

  async function isTwoFactorRequired(): Promise<boolean> {
    return (await readSetting(kysely, REQUIRE_TWO_FACTOR)) === true
  }

  async function twoFactorSetupRequired(user: StaffUser): Promise<boolean> {
    if (user.twoFactorEnabled) return false
    return user.twoFactorEnrolRequired || TWO_FACTOR_ROLES.includes(user.role) || (await isTwoFactorRequired())
  }

  async function createUser(input: NewStaffUser, actor: AuditActor | null = null): Promise<StaffUser> {
    const { email, name } = checkNewUser(input)
    await checkPassword(input.password, email, name)
    const user = await insertUser(email, name, input.role)
    const context = await auth.$context
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: 'credential',
      accountId: user.id,
      password: await context.password.hash(input.password),
    })
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

  async function listMembers(email?: string): Promise<StaffMember[]> {
    const rows = await kysely
      .selectFrom('staff_users')
      .select((eb) => [
        'id',
        'email',
        'name',
        'role',
        'twoFactorEnabled',
        'twoFactorEnrolRequired',
        'deactivatedAt',
        eb
          .exists(
            eb
              .selectFrom('staff_accounts')
              .select('staff_accounts.id')
              .whereRef('staff_accounts.userId', '=', 'staff_users.id')
              .where('providerId', '=', 'credential'),
          )
          .as('hasPassword'),
      ])
      .$if(email !== undefined, (query) => query.where('email', '=', email ?? ''))
      .execute()
    return rows
      .map((row) => ({ ...staffUserOf(row), deactivated: row.deactivatedAt !== null, invitationPending: !isTrue(row.hasPassword) }))
      .sort((a, b) => STAFF_ROLES.indexOf(a.role) - STAFF_ROLES.indexOf(b.role) || a.name.localeCompare(b.name))
  }

  async function memberById(memberId: string): Promise<StaffMember> {
    const email = await kysely.selectFrom('staff_users').select('email').where('id', '=', memberId).executeTakeFirst()
    const [member] = email ? await listMembers(email.email) : []
    if (!member) throw new StaffAccountError('unknown-member', 'There is no such staff account.')
    return member
  }

  /**
   * Refuses a change that would leave no usable owner. Only an active owner who has signed in at least once counts:
   * a pending invitation may lapse and an account nobody has used may not be reachable, so neither can manage staff.
   */
  async function checkOwnersRemain(transaction: Transaction<StaffDatabase>, member: StaffMember, change: MemberChange): Promise<void> {
    const removesOwner =
      member.role === 'owner' && !member.deactivated && (change.kind === 'deactivate' || (change.kind === 'set-role' && change.role !== 'owner'))
    if (!removesOwner) return
    // Two owners stepping each other down at once: the second waits for the first to commit, then counts again.
    // SQLite runs one transaction at a time already; PostgreSQL locks every owner's row, in one order to avoid deadlock.
    if (dialect === 'postgres') {
      await transaction.selectFrom('staff_users').select('id').where('role', '=', 'owner').orderBy('id').forUpdate().execute()
    }
    const otherUsableOwner = await transaction
      .selectFrom('staff_users')
      .select('staff_users.id')
      .where('role', '=', 'owner')
      .where('deactivatedAt', 'is', null)
      .where('staff_users.id', '!=', member.id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('staff_audit_log')
            .select('staff_audit_log.id')
            .whereRef('staff_audit_log.subject_id', '=', 'staff_users.id')
            .where('staff_audit_log.action', '=', 'sign-in'),
        ),
      )
      .executeTakeFirst()
    if (!otherUsableOwner) throw new StaffAccountError('last-owner', LAST_OWNER_MESSAGE)
  }

  /**
   * Forgets what slows a member's sign-in: the account's failures, its wrong codes, and the record of every address
   * that failed on it in the last day (the member's own connection among them), and the auth library's own two-factor
   * lock should one be left from before it was turned off.
   */
  async function liftSignInLocks(
    transaction: Transaction<StaffDatabase>,
    member: StaffMember,
    now: Date,
    audit: (action: string, before: unknown, after: unknown) => AuditRecord,
  ): Promise<void> {
    const failedFrom = await transaction
      .selectFrom('staff_audit_log')
      .select('ip_address')
      .distinct()
      .where('subject_id', '=', member.id)
      .where('action', '=', 'sign-in-failed')
      .where('occurred_at', '>=', new Date(now.getTime() - 24 * 3600_000).toISOString())
      .where('ip_address', 'is not', null)
      .execute()
    const keys = [accountKey(member.email), codesKey(member.id), ...failedFrom.map((row) => addressKey(row.ip_address ?? ''))]
    const held = await transaction.selectFrom('staff_sign_in_throttle').select(['key', 'failures']).where('key', 'in', keys).execute()
    await transaction.deleteFrom('staff_sign_in_throttle').where('key', 'in', keys).execute()
    await transaction.updateTable('staff_two_factors').set({ failedVerificationCount: 0, lockedUntil: null }).where('userId', '=', member.id).execute()
    await recordAudit(transaction, audit('sign-in-locks-lifted', { failures: held.reduce((sum, row) => sum + row.failures, 0) }, { failures: 0 }))
  }

  async function changeMember(actor: StaffUser | null, memberId: string, change: MemberChange): Promise<StaffMember> {
    checkOwner(actor)
    const member = await memberById(memberId)
    const now = new Date()
    const audit = (action: string, before: unknown, after: unknown): AuditRecord => ({
      actor: actor ? actorOf(actor) : null,
      action,
      subjectType: 'staff-user',
      subjectId: member.id,
      before,
      after,
    })
    if (change.kind === 'resend-invitation') {
      if (!member.invitationPending || member.deactivated)
        throw new StaffAccountError('not-invited', `${member.email} has chosen a password already: they can use "Forgot your password?".`)
      await recordAudit(kysely, audit('staff-invitation-resent', null, { email: member.email }))
      await auth.api.requestPasswordReset({ body: { email: member.email } })
      return member
    }
    await kysely.transaction().execute(async (transaction) => {
      await checkOwnersRemain(transaction, member, change)
      const users = transaction.updateTable('staff_users').where('id', '=', member.id)
      const endSessions = () => transaction.deleteFrom('staff_sessions').where('userId', '=', member.id).execute()
      if (change.kind === 'deactivate') {
        await users.set({ deactivatedAt: storedDate(now), updatedAt: storedDate(now) }).execute()
        await endSessions()
        await transaction.deleteFrom('staff_verifications').where('value', '=', member.id).execute()
        await recordAudit(transaction, audit('staff-deactivated', { active: true }, { active: false }))
      } else if (change.kind === 'reactivate') {
        await users.set({ deactivatedAt: null, updatedAt: storedDate(now) }).execute()
        await recordAudit(transaction, audit('staff-reactivated', { active: false }, { active: true }))
      } else if (change.kind === 'set-role') {
        if (!STAFF_ROLES.includes(change.role))
          throw new StaffAccountError('invalid-role', `The role must be owner, manager or staff, not ${String(change.role)}.`)
        await users.set({ role: change.role, updatedAt: storedDate(now) }).execute()
        await recordAudit(transaction, audit('staff-role-changed', { role: member.role }, { role: change.role }))
      } else if (change.kind === 'lift-sign-in-locks') {
        await liftSignInLocks(transaction, member, now, audit)
      } else {
        await transaction.deleteFrom('staff_two_factors').where('userId', '=', member.id).execute()
        await transaction.deleteFrom('staff_used_totp_codes').where('user_id', '=', member.id).execute()
        await users.set({ twoFactorEnabled: storedBoolean(false), twoFactorEnrolRequired: storedBoolean(true), updatedAt: storedDate(now) }).execute()
        await endSessions()
        await recordAudit(
          transaction,
          audit('two-factor-reset', { twoFactorEnabled: member.twoFactorEnabled }, { twoFactorEnabled: false, enrolAtNextSignIn: true }),
        )
      }
    })
    return memberById(member.id)
  }

  /** Sets a password with a reset or invitation link's token: the link and every other one of the account stop working. */
  async function resetPassword(token: string, newPassword: string): Promise<{ ok: true } | { ok: false; message: string }> {
    const context = await auth.$context
    const verification = token === '' ? null : await context.internalAdapter.findVerificationValue(`reset-password:${token}`)
    if (!verification || new Date(verification.expiresAt) < new Date()) return { ok: false, message: LINK_EXPIRED_MESSAGE }
    const userId = verification.value
    const user = await kysely.selectFrom('staff_users').select(['id', 'email', 'name', 'deactivatedAt']).where('id', '=', userId).executeTakeFirst()
    if (!user || user.deactivatedAt) return { ok: false, message: LINK_EXPIRED_MESSAGE }
    const problem = passwordProblem(newPassword, { email: user.email, name: user.name, companyName: await companyName() })
    if (problem) return { ok: false, message: problem }
    const hash = await context.password.hash(newPassword)
    const invitation = !(await hasPassword(userId))
    const now = new Date()
    const used = await kysely.transaction().execute(async (transaction) => {
      // Taking the link is the first write: of two posts with the same link, one finds it gone and changes nothing.
      const taken = await transaction.deleteFrom('staff_verifications').where('id', '=', verification.id).executeTakeFirst()
      if (Number(taken.numDeletedRows) !== 1) return false
      await transaction.deleteFrom('staff_verifications').where('value', '=', userId).execute()
      if (invitation) {
        await transaction
          .insertInto('staff_accounts')
          .values({
            id: uuidv7(),
            accountId: userId,
            providerId: 'credential',
            userId,
            password: hash,
            accessToken: null,
            refreshToken: null,
            idToken: null,
            accessTokenExpiresAt: null,
            refreshTokenExpiresAt: null,
            scope: null,
            createdAt: storedDate(now),
            updatedAt: storedDate(now),
          })
          .execute()
      } else {
        await transaction
          .updateTable('staff_accounts')
          .set({ password: hash, updatedAt: storedDate(now) })
          .where('userId', '=', userId)
          .where('providerId', '=', 'credential')
          .execute()
      }
      await transaction.deleteFrom('staff_sessions').where('userId', '=', userId).execute()
      await recordAudit(transaction, {
        actor: { id: user.id, email: user.email },
        action: invitation ? 'password-set' : 'password-reset',
        subjectType: 'staff-user',
        subjectId: userId,
        at: now,
      })
      return true
    })
    return used ? { ok: true } : { ok: false, message: LINK_EXPIRED_MESSAGE }
  }

  return {
    auth,
    async signIn(request, credentials) {
      const response = await callAuth(request, '/sign-in/email', { email: credentials.email.trim().toLowerCase(), password: credentials.password })
      return signInResult(response, SIGN_IN_FAILED_MESSAGE)
    },
    async verifyTwoFactorCode(request, typed) {
      const code = typed.replace(/\s+/g, '')
      const response = TOTP_CODE.test(code)
        ? await callAuth(request, '/two-factor/verify-totp', { code })
        : await callAuth(request, '/two-factor/verify-backup-code', { code })
      if (response.status !== 401) return signInResult(response, WRONG_CODE_MESSAGE)
      const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string }
      const message =
        body.code === SIGN_IN_ENDED_CODE ? SIGN_IN_ENDED_MESSAGE : body.message === 'This code was used already.' ? USED_CODE_MESSAGE : STALE_SIGN_IN_MESSAGE
      return { status: 'refused', reason: 'sign-in-ended', message, headers: setCookieHeaders(response) }
    },
    async signOut(request) {
      const session = await getSession(request)
      if (session) {
        await kysely.transaction().execute(async (transaction) => {
          await transaction.deleteFrom('staff_sessions').where('id', '=', session.sessionId).execute()
          await recordAudit(transaction, {
            actor: actorOf(session.user),
            action: 'signed-out',
            subjectType: 'staff-user',
            subjectId: session.user.id,
            after: { sessionId: session.sessionId },
          })
        })
      }
      const { headers } = await auth.api.signOut({ headers: request.headers, returnHeaders: true })
      return headers
    },
    async signOutEverywhere(request) {
      const session = await getSession(request)
      if (session) {
        await kysely.transaction().execute(async (transaction) => {
          await transaction.deleteFrom('staff_sessions').where('userId', '=', session.user.id).execute()
          await recordAudit(transaction, {
            actor: actorOf(session.user),
            action: 'signed-out-everywhere',
            subjectType: 'staff-user',
            subjectId: session.user.id,
          })
        })
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
      if (guard.role && !roleAllows(session.user.role, guard.role)) {
        throw new Response(guard.role === 'owner' ? 'Only an owner may do this.' : 'Only a manager or an owner may do this.', { status: 403 })
      }
      return session
    },
    twoFactorSetupRequired,
    isTwoFactorRequired,
    async setTwoFactorRequired(actor, required) {
      checkOwner(actor)
      const before = await isTwoFactorRequired()
      await writeSetting(kysely, REQUIRE_TWO_FACTOR, required, new Date())
      await recordAudit(kysely, {
        actor: actorOf(actor),
        action: 'setting-changed',
        subjectType: 'staff-setting',
        subjectId: REQUIRE_TWO_FACTOR,
        before,
        after: required,
      })
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
      const session = await requireSession(request)
      const pending = await kysely.selectFrom('staff_two_factors').select(['id', 'secret']).where('userId', '=', session.user.id).executeTakeFirst()
      if (!pending) throw new StaffAccountError('two-factor-off', 'Start setting up two-factor sign-in again.')
      const typed = code.replace(/\s+/g, '')
      // The secret as better-auth's two-factor plugin stored it at the setup's start (encrypted with the auth secret).
      const secret = await symmetricDecrypt({ key: (await auth.$context).secretConfig, data: pending.secret })
      if (!TOTP_CODE.test(typed) || !(await createOTP(secret).verify(typed))) throw new StaffAccountError('wrong-code', WRONG_CODE_MESSAGE)
      const now = new Date()
      await kysely.transaction().execute(async (transaction) => {
        // The setup's code is used up as a sign-in's would be: it cannot sign anyone in within its window.
        const used = await transaction
          .insertInto('staff_used_totp_codes')
          .values({ user_id: session.user.id, code_hash: usedCodeHash(session.user.id, typed), used_at: now.toISOString() })
          .onConflict((conflict) => conflict.columns(['user_id', 'code_hash']).doNothing())
          .executeTakeFirst()
        if (Number(used.numInsertedOrUpdatedRows ?? 0) === 0) throw new StaffAccountError('wrong-code', USED_CODE_MESSAGE)
        await transaction
          .updateTable('staff_two_factors')
          .set({ verified: storedBoolean(true) })
          .where('id', '=', pending.id)
          .execute()
        await transaction
          .updateTable('staff_users')
          .set({ twoFactorEnabled: storedBoolean(true), twoFactorEnrolRequired: storedBoolean(false), updatedAt: storedDate(now) })
          .where('id', '=', session.user.id)
          .execute()
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'two-factor-enabled',
          subjectType: 'staff-user',
          subjectId: session.user.id,
          before: false,
          after: true,
          at: now,
        })
      })
      return session.headers
    },
    async disableTwoFactor(request, password) {
      const session = await requireSession(request)
      if (TWO_FACTOR_ROLES.includes(session.user.role)) {
        throw new StaffAccountError('owner-only', `As ${roleName(session.user.role)} you must keep two-factor sign-in on.`)
      }
      await checkCurrentPassword(session.user.id, password, 'The password is wrong.')
      const now = new Date()
      await kysely.transaction().execute(async (transaction) => {
        await transaction.deleteFrom('staff_two_factors').where('userId', '=', session.user.id).execute()
        await transaction.deleteFrom('staff_used_totp_codes').where('user_id', '=', session.user.id).execute()
        await transaction
          .updateTable('staff_users')
          .set({ twoFactorEnabled: storedBoolean(false), updatedAt: storedDate(now) })
          .where('id', '=', session.user.id)
          .execute()
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'two-factor-disabled',
          subjectType: 'staff-user',
          subjectId: session.user.id,
          before: true,
          after: false,
          at: now,
        })
      })
      return session.headers
    },
    listStaff: () => listMembers(),
    async findMember(email) {
      const [member] = await listMembers(email.trim().toLowerCase())
      return member ?? null
    },
    changeMember,
    createUser,
    async inviteStaff(actor, input) {
      checkOwner(actor)
      const { email, name } = checkNewUser(input)
      const user = await insertUser(email, name, input.role)
      await recordAudit(kysely, {
        actor: actorOf(actor),
        action: 'staff-invited',
        subjectType: 'staff-user',
        subjectId: user.id,
        after: { email, name, role: input.role },
      })
      await auth.api.requestPasswordReset({ body: { email } })
      return user
    },
    async requestPasswordReset(request, email) {
      // The answer is the same whether or not the address has an account.
      await callAuth(request, '/request-password-reset', { email: email.trim().toLowerCase() })
    },
    async changePassword(request, { currentPassword, newPassword }) {
      const session = await requireSession(request)
      await checkCurrentPassword(session.user.id, currentPassword, 'The current password is wrong.')
      await checkPassword(newPassword, session.user.email, session.user.name)
      const hash = await (await auth.$context).password.hash(newPassword)
      const now = new Date()
      await kysely.transaction().execute(async (transaction) => {
        await transaction
          .updateTable('staff_accounts')
          .set({ password: hash, updatedAt: storedDate(now) })
          .where('userId', '=', session.user.id)
          .where('providerId', '=', 'credential')
          .execute()
        await transaction.deleteFrom('staff_sessions').where('userId', '=', session.user.id).where('id', '!=', session.sessionId).execute()
        await transaction.deleteFrom('staff_verifications').where('value', '=', session.user.id).execute()
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'password-changed',
          subjectType: 'staff-user',
          subjectId: session.user.id,
          at: now,
        })
      })
      return session.headers
    },
    resetPassword,
    async listOwnSessions(request) {
      const session = await requireSession(request)
      const rows = await kysely.selectFrom('staff_sessions').selectAll().where('userId', '=', session.user.id).orderBy('createdAt', 'desc').execute()
      return rows
        .filter((row) => new Date(row.expiresAt) > new Date())
        .map((row) => ({
          id: row.id,
          createdAt: new Date(row.createdAt),
          lastUsedAt: new Date(row.updatedAt),
          ipAddress: row.ipAddress,
          userAgent: row.userAgent,
          current: row.id === session.sessionId,
        }))
    },
    async endOwnSession(request, sessionId) {
      const session = await requireSession(request)
      await kysely.transaction().execute(async (transaction) => {
        const ended = await transaction
          .deleteFrom('staff_sessions')
          .where('id', '=', sessionId)
          .where('userId', '=', session.user.id)
          .where('id', '!=', session.sessionId)
          .executeTakeFirst()
        if (Number(ended.numDeletedRows) !== 1) throw new StaffAccountError('unknown-session', 'That session has ended already.')
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'session-ended',
          subjectType: 'staff-user',
          subjectId: session.user.id,
          after: { sessionId },
        })
      })
    },
    async listPasskeys(request) {
      const session = await requireSession(request)
      const rows = await kysely
        .selectFrom('staff_passkeys')
        .select(['id', 'name', 'createdAt', 'lastUsedAt'])
        .where('userId', '=', session.user.id)
        .orderBy('createdAt', 'desc')
        .execute()
      return rows.map((row) => ({
        id: row.id,
        name: row.name ?? 'Passkey',
        createdAt: row.createdAt === null ? null : new Date(row.createdAt),
        lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
      }))
    },
    async beginAddPasskey(request, password) {
      const session = await requireSession(request)
      await checkCurrentPassword(session.user.id, password, 'The password is wrong.')
      return passkeyCeremony(request, '/passkey/generate-register-options')
    },
    async addPasskey(request, passkey) {
      const session = await requireSession(request)
      const name = singleLine(passkey.name)
      if (name === '') throw new StaffAccountError('invalid-name', 'Name the passkey, for example after the device it is on.')
      if (name.length > MAX_PASSKEY_NAME_LENGTH) {
        throw new StaffAccountError('invalid-name', `A passkey's name is at most ${MAX_PASSKEY_NAME_LENGTH} characters.`)
      }
      const response = ceremonyResponse(passkey.response)
      if (!response) throw new StaffAccountError('passkey-unavailable', PASSKEY_UNAVAILABLE_MESSAGE)
      const verified = await callAuth(request, '/passkey/verify-registration', { response, name })
      if (!verified.ok) throw new StaffAccountError('passkey-unavailable', PASSKEY_NOT_ADDED_MESSAGE)
      const added = (await verified.json()) as { id: string }
      await recordAudit(kysely, {
        actor: actorOf(session.user),
        action: 'passkey-added',
        subjectType: 'staff-user',
        subjectId: session.user.id,
        after: { passkeyId: added.id, name },
      })
    },
    async removePasskey(request, passkeyId) {
      const session = await requireSession(request)
      await kysely.transaction().execute(async (transaction) => {
        const removed = await transaction
          .deleteFrom('staff_passkeys')
          .where('id', '=', passkeyId)
          .where('userId', '=', session.user.id)
          .returning('name')
          .executeTakeFirst()
        if (!removed) throw new StaffAccountError('unknown-passkey', 'That passkey was removed already.')
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'passkey-removed',
          subjectType: 'staff-user',
          subjectId: session.user.id,
          before: { passkeyId, name: removed.name },
        })
      })
    },
    beginPasskeySignIn: (request) => passkeyCeremony(request, '/passkey/generate-authenticate-options'),
    async signInWithPasskey(request, json) {
      const response = ceremonyResponse(json)
      if (!response) return { status: 'refused', reason: 'wrong-credentials', message: PASSKEY_UNAVAILABLE_MESSAGE, headers: new Headers() }
      return signInResult(await callAuth(request, '/passkey/verify-authentication', { response }), PASSKEY_SIGN_IN_FAILED_MESSAGE)
    },
    async regenerateBackupCodes(request, password) {
      const session = await requireSession(request)
      await checkCurrentPassword(session.user.id, password, 'The password is wrong.')
      const backupCodes = newBackupCodes()
      // Stored as better-auth's two-factor plugin stores them (encrypted with the auth secret), so its code step reads them.
      const stored = await symmetricEncrypt({ key: (await auth.$context).secretConfig, data: JSON.stringify(backupCodes) })
      await kysely.transaction().execute(async (transaction) => {
        const replaced = await transaction
          .updateTable('staff_two_factors')
          .set({ backupCodes: stored })
          .where('userId', '=', session.user.id)
          .executeTakeFirst()
        if (Number(replaced.numUpdatedRows) === 0) throw new StaffAccountError('two-factor-off', 'Turn two-factor sign-in on first.')
        await recordAudit(transaction, {
          actor: actorOf(session.user),
          action: 'backup-codes-regenerated',
          subjectType: 'staff-user',
          subjectId: session.user.id,
        })
      })
      return backupCodes
    },
    recordAudit: (record) => recordAudit(kysely, record),
    listAudit: (page) => listAudit(kysely, page),
  }
}
