/** better-auth's passkey model (a member's WebAuthn credential, its public key in base64) and when it last signed in. */
export interface StaffPasskeysTable {
  id: string
  name: string | null
  publicKey: string
  userId: string
  credentialID: string
  counter: number
  deviceType: string
  backedUp: boolean | number
  transports: string | null
  createdAt: Date | string | null
  aaguid: string | null
  lastUsedAt: Date | string | null
}
