import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { TEST_BACKENDS, openTestDatabase, testSiteLinks, type TestDatabase } from '@events/core/test-support'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PASSKEY_SIGN_IN_FAILED_MESSAGE, STAFF_CLIENT_IP_HEADER } from './auth.ts'
import type { StaffKysely } from './db/database.ts'
import { PASSKEY_UNAVAILABLE_MESSAGE, createStaff, type Staff } from './staff.ts'

const SITE = 'http://localhost:3000'
const OWNER = { email: 'owner@example.com', name: 'Olu Owner', role: 'owner' as const, password: 'olu picks a phrase 1234' }
const MEMBER = { email: 'member@example.com', name: 'Sipho Staff', role: 'staff' as const, password: 'sipho picks a phrase 1234' }
const OTHER = { email: 'other@example.com', name: 'Thandi Staff', role: 'staff' as const, password: 'thandi picks a phrase 1234' }

/** A browser's cookies in miniature, and its requests as a same-origin form post from one address. */
class Browser {
  private readonly cookies = new Map<string, string>()

  constructor(private readonly ip: string) {}

  take(headers: Headers): this {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const separator = pair.indexOf('=')
      const value = pair.slice(separator + 1).trim()
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, separator))
      else this.cookies.set(pair.slice(0, separator), value)
    }
    return this
  }

  request(path = '/admin/account'): Request {
    const headers = new Headers({ [STAFF_CLIENT_IP_HEADER]: this.ip, origin: SITE })
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    return new Request(`${SITE}${path}`, { headers })
  }
}

// A software authenticator for the tests: what Chromium's virtual one does in the browser tests, in a few lines of CBOR
// and ECDSA, so the storage and its refusals are tested on both databases.

function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) =>
    length < 24
      ? Buffer.from([(major << 5) | length])
      : length < 256
        ? Buffer.from([(major << 5) | 24, length])
        : Buffer.from([(major << 5) | 25, length >> 8, length & 255])
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value])
  const entries = value instanceof Map ? [...value] : Object.entries(value as object)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])])
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest()
const base64url = (data: Buffer) => data.toString('base64url')

interface Authenticator {
  credentialId: Buffer
  privateKey: KeyObject
  publicKey: KeyObject
  counter: number
}

function newAuthenticator(): Authenticator {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return { credentialId: randomBytes(32), privateKey, publicKey, counter: 0 }
}

function clientData(type: string, options: unknown): Buffer {
  const { challenge } = options as { challenge: string }
  return Buffer.from(JSON.stringify({ type, challenge, origin: SITE, crossOrigin: false }))
}

/** The answer `navigator.credentials.create` gives with these options: a new P-256 key, attestation "none". */
function created(authenticator: Authenticator, options: unknown): string {
  const rpId = (options as { rp: { id: string } }).rp.id
  const jwk = authenticator.publicKey.export({ format: 'jwk' })
  const coseKey = new Map<number, unknown>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x ?? '', 'base64url')],
    [-3, Buffer.from(jwk.y ?? '', 'base64url')],
  ])
  const idLength = Buffer.from([0, authenticator.credentialId.length])
  const authData = Buffer.concat([sha256(rpId), Buffer.from([0x45, 0, 0, 0, 0]), Buffer.alloc(16), idLength, authenticator.credentialId, cbor(coseKey)])
  const id = base64url(authenticator.credentialId)
  return JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: base64url(clientData('webauthn.create', options)),
      attestationObject: base64url(cbor({ fmt: 'none', attStmt: {}, authData })),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  })
}

/** The answer `navigator.credentials.get` gives with these options, signed by the authenticator's key. */
function asserted(authenticator: Authenticator, options: unknown): string {
  const rpId = (options as { rpId: string }).rpId
  authenticator.counter += 1
  const counter = Buffer.alloc(4)
  counter.writeUInt32BE(authenticator.counter)
  const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), counter])
  const data = clientData('webauthn.get', options)
  const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), authenticator.privateKey)
  const id = base64url(authenticator.credentialId)
  return JSON.stringify({
    id,
    rawId: id,
    type: 'public-key',
    response: { clientDataJSON: base64url(data), authenticatorData: base64url(authData), signature: base64url(signature) },
    clientExtensionResults: {},
  })
}

describe.each(TEST_BACKENDS)('staff passkeys on %s', (backend) => {
  let testDb: TestDatabase
  let kysely: StaffKysely
  let addresses = 0

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    kysely = testDb.db.kysely as unknown as StaffKysely
  })
  afterEach(async () => {
    await testDb.dispose()
  })

  const open = () => createStaff({ db: testDb.db, links: testSiteLinks(SITE), siteName: 'Example Events' })

  async function signedIn(staff: Staff, who: { email: string; password: string }): Promise<Browser> {
    addresses += 1
    const browser = new Browser(`198.51.100.${addresses}`)
    const result = await staff.signIn(browser.request('/admin/sign-in'), who)
    expect(result.status).toBe('signed-in')
    return browser.take(result.headers)
  }

  async function addPasskey(staff: Staff, browser: Browser, who: { password: string }, name: string): Promise<Authenticator> {
    const authenticator = newAuthenticator()
    const ceremony = await staff.beginAddPasskey(browser.request(), who.password)
    browser.take(ceremony.headers)
    await staff.addPasskey(browser.request(), { name, response: created(authenticator, ceremony.options) })
    return authenticator
  }

  async function passkeySignIn(staff: Staff, authenticator: Authenticator, answer = asserted) {
    addresses += 1
    const browser = new Browser(`203.0.113.${addresses}`)
    const ceremony = await staff.beginPasskeySignIn(browser.request('/admin/sign-in'))
    browser.take(ceremony.headers)
    const result = await staff.signInWithPasskey(browser.request('/admin/sign-in'), answer(authenticator, ceremony.options))
    return { result, browser: browser.take(result.headers) }
  }

  it('adds a named passkey with the password, signs in with it alone, lists when it was added and last used', async () => {
    const staff = await open()
    await staff.createUser(MEMBER)
    const browser = await signedIn(staff, MEMBER)
    await expect(staff.beginAddPasskey(browser.request(), 'not the password')).rejects.toMatchObject({ code: 'wrong-password' })
    const authenticator = await addPasskey(staff, browser, MEMBER, '  Work laptop  ')
    const [listed] = await staff.listPasskeys(browser.request())
    expect(listed).toMatchObject({ name: 'Work laptop', lastUsedAt: null })
    expect(listed?.createdAt).toBeInstanceOf(Date)
    const stored = await kysely.selectFrom('staff_passkeys').selectAll().executeTakeFirstOrThrow()
    expect(stored.credentialID).toBe(base64url(authenticator.credentialId))

    const { result, browser: passkeyBrowser } = await passkeySignIn(staff, authenticator)
    expect(result.status).toBe('signed-in')
    expect((await staff.getSession(passkeyBrowser.request()))?.user.email).toBe(MEMBER.email)
    expect((await staff.listPasskeys(browser.request()))[0]?.lastUsedAt).toBeInstanceOf(Date)
    const audit = (await staff.listAudit()).entries
    expect(audit.find((entry) => entry.action === 'passkey-added')?.after).toMatchObject({ name: 'Work laptop' })
    expect(audit.find((entry) => entry.action === 'sign-in' && entry.ipAddress?.startsWith('203.0.113.'))?.after).toEqual({ passkey: true })
  })

  it('signs in an owner with two-factor on with a passkey, in place of the code', async () => {
    const staff = await open()
    await staff.createUser(OWNER)
    const browser = await signedIn(staff, OWNER)
    const authenticator = await addPasskey(staff, browser, OWNER, 'Phone')
    await kysely
      .updateTable('staff_users')
      .set({ twoFactorEnabled: backend === 'postgres' ? true : 1 })
      .execute()
    expect((await staff.signIn(new Browser('198.51.100.200').request('/admin/sign-in'), OWNER)).status).toBe('two-factor-required')
    const { result, browser: passkeyBrowser } = await passkeySignIn(staff, authenticator)
    expect(result.status).toBe('signed-in')
    expect((await staff.getSession(passkeyBrowser.request()))?.user).toMatchObject({ role: 'owner', twoFactorEnabled: true })
  })

  it('refuses a name that is empty or too long, and an answer that is not a passkey (no JavaScript), adding nothing', async () => {
    const staff = await open()
    await staff.createUser(MEMBER)
    const browser = await signedIn(staff, MEMBER)
    const ceremony = await staff.beginAddPasskey(browser.request(), MEMBER.password)
    browser.take(ceremony.headers)
    const response = created(newAuthenticator(), ceremony.options)
    await expect(staff.addPasskey(browser.request(), { name: ' ', response })).rejects.toMatchObject({ code: 'invalid-name' })
    await expect(staff.addPasskey(browser.request(), { name: 'x'.repeat(61), response })).rejects.toMatchObject({ code: 'invalid-name' })
    await expect(staff.addPasskey(browser.request(), { name: 'Laptop', response: '' })).rejects.toMatchObject({ message: PASSKEY_UNAVAILABLE_MESSAGE })
    await expect(staff.addPasskey(browser.request(), { name: 'Laptop', response: '[1]' })).rejects.toMatchObject({ code: 'passkey-unavailable' })
    expect(await staff.signInWithPasskey(new Browser('198.51.100.250').request('/admin/sign-in'), '')).toMatchObject({
      status: 'refused',
      message: PASSKEY_UNAVAILABLE_MESSAGE,
    })
    expect(await kysely.selectFrom('staff_passkeys').selectAll().execute()).toEqual([])
  })

  it("refuses a challenge used twice, and a passkey's answer signed by another key", async () => {
    const staff = await open()
    await staff.createUser(MEMBER)
    const browser = await signedIn(staff, MEMBER)
    const authenticator = await addPasskey(staff, browser, MEMBER, 'Laptop')
    // Another key claiming the registered credential's id: its signature does not verify against the stored key.
    const impostor = { ...newAuthenticator(), credentialId: authenticator.credentialId }
    expect((await passkeySignIn(staff, impostor)).result).toMatchObject({ status: 'refused', message: PASSKEY_SIGN_IN_FAILED_MESSAGE })

    const replayer = new Browser('203.0.113.250')
    const ceremony = await staff.beginPasskeySignIn(replayer.request('/admin/sign-in'))
    replayer.take(ceremony.headers)
    const answer = asserted(authenticator, ceremony.options)
    expect((await staff.signInWithPasskey(replayer.request('/admin/sign-in'), answer)).status).toBe('signed-in')
    expect(await staff.signInWithPasskey(replayer.request('/admin/sign-in'), answer)).toMatchObject({ status: 'refused' })
    expect((await staff.listAudit()).entries.filter((entry) => entry.action === 'sign-in-failed')).toHaveLength(2)
  })

  it("stops a deactivated member's passkeys at once, and works again on reactivation", async () => {
    const staff = await open()
    const owner = await staff.createUser(OWNER)
    const member = await staff.createUser(MEMBER)
    const authenticator = await addPasskey(staff, await signedIn(staff, MEMBER), MEMBER, 'Laptop')
    await staff.changeMember(owner, member.id, { kind: 'deactivate' })
    expect((await passkeySignIn(staff, authenticator)).result).toMatchObject({ status: 'refused', message: PASSKEY_SIGN_IN_FAILED_MESSAGE })
    expect(await kysely.selectFrom('staff_sessions').selectAll().where('userId', '=', member.id).execute()).toEqual([])
    const refusal = (await staff.listAudit()).entries.find((entry) => entry.action === 'sign-in-refused')
    expect(refusal?.after).toMatchObject({ email: MEMBER.email, reason: 'deactivated' })

    await staff.changeMember(owner, member.id, { kind: 'reactivate' })
    expect((await passkeySignIn(staff, authenticator)).result.status).toBe('signed-in')
  })

  it("removes one's own passkey, in the audit log, and cannot list or remove another account's", async () => {
    const staff = await open()
    await staff.createUser(MEMBER)
    await staff.createUser(OTHER)
    const memberBrowser = await signedIn(staff, MEMBER)
    const otherBrowser = await signedIn(staff, OTHER)
    const authenticator = await addPasskey(staff, memberBrowser, MEMBER, 'Laptop')
    await addPasskey(staff, otherBrowser, OTHER, 'Phone')
    const [mine] = await staff.listPasskeys(memberBrowser.request())
    expect((await staff.listPasskeys(otherBrowser.request())).map((passkey) => passkey.name)).toEqual(['Phone'])

    await expect(staff.removePasskey(otherBrowser.request(), mine?.id ?? '')).rejects.toMatchObject({ code: 'unknown-passkey' })
    expect(await staff.listPasskeys(memberBrowser.request())).toHaveLength(1)

    await staff.removePasskey(memberBrowser.request(), mine?.id ?? '')
    expect(await staff.listPasskeys(memberBrowser.request())).toEqual([])
    expect((await staff.listAudit()).entries.find((entry) => entry.action === 'passkey-removed')).toMatchObject({
      actor: { email: MEMBER.email },
      before: { name: 'Laptop' },
    })
    expect((await passkeySignIn(staff, authenticator)).result).toMatchObject({ status: 'refused', message: PASSKEY_SIGN_IN_FAILED_MESSAGE })
    await expect(staff.removePasskey(memberBrowser.request(), mine?.id ?? '')).rejects.toMatchObject({ code: 'unknown-passkey' })
  })
})
