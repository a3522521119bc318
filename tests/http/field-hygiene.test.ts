// What the public forms store, seen where staff read it: a name with bidirectional controls, marks or zero-width
// characters reaches the back office without them (it cannot display as other text), and a telephone number that is none is refused with a message.
import { describe, expect, it } from 'vitest'
import { signInCookie, type StaffAccount, useBackOfficeSite } from '../support/admin.ts'
import { registrationBody, type RegistrationReceipt } from '../support/registrations.ts'

const STAFF: StaffAccount = { email: 'lerato@example.com', name: 'Lerato Staff', role: 'staff', password: 'a long enough staff password' }
const { site, url } = useBackOfficeSite([STAFF])

const postJson = (pathname: string, body: unknown) =>
  fetch(url(pathname), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('fields the public forms store', () => {
  it('reach the back office without bidirectional controls, marks or zero-width characters', async () => {
    const body = registrationBody({ companyName: '\uFEFFInvoice\u202Egpj\u200B.exe\u200E Ltd\u061C' })
    body.delegates[0]!.name = 'Thandi \u2066Mo\u200Dko\u200Cena\u2069\u200F'
    const registered = await postJson('/api/registrations', body)
    expect(registered.status).toBe(201)
    const { reference } = (await registered.json()) as RegistrationReceipt
    const page = await (await fetch(url(`/admin/registrations/${reference}`), { headers: { cookie: await signInCookie(site().baseUrl, STAFF) } })).text()
    expect(page).toContain('Invoicegpj.exe Ltd')
    expect(page).toContain('Thandi Mokoena')
    expect(page).not.toMatch(/[\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/)
  })

  it('refuses a telephone number that is none, saying so beside the field, and accepts one from abroad', async () => {
    const enquiry = { fullName: 'Naledi Dlamini', companyName: '', email: 'naledi@example.org', interest: 'Conference', message: 'Programme?' }
    const refused = await postJson('/api/contact', { ...enquiry, phone: '12345' })
    expect(refused.status).toBe(422)
    expect(await refused.json()).toMatchObject({
      error: { code: 'invalid-phone', fields: { phone: 'Please enter a valid telephone number, e.g. 011 555 0100, or +44 20 7946 0958 from abroad.' } },
    })
    expect((await postJson('/api/contact', { ...enquiry, phone: '+44 20 7946 0958' })).status).toBe(201)
    const registration = await postJson('/api/registrations', registrationBody({ tel: 'reception' }))
    expect(registration.status).toBe(422)
    expect(await registration.json()).toMatchObject({ error: { fields: { tel: expect.stringContaining('valid telephone number') } } })
  })
})
