import { describe, expect, it } from 'vitest'
import type * as z from 'zod/mini'
import { INHERITED_NAMES, LEGAL_OPINION, RESILIENCE, SITE_NOW, registrationInput } from '../test-support.ts'
import { MAX_DELEGATES } from './choices.ts'
import { contactEnquirySchema, trainingRequestSchema } from './enquiries.ts'
import type { FieldIssue } from './fields.ts'
import { fieldIssueOf } from './parse.ts'
import { companyDetailsSchema, delegateSchema, registrationSchemaFor } from './registration.ts'

/** What a schema says is wrong with `input`: stable codes and field paths, in the order the fields are listed. */
function issuesOf(schema: z.ZodMiniType, input: unknown): FieldIssue[] {
  const result = schema.safeParse(input)
  return result.success ? [] : result.error.issues.map(fieldIssueOf)
}

const DELEGATE = { name: 'Thandi Nkosi', position: 'Legal Adviser', email: 'thandi@acme.example.com' }
const COMPANY = { companyName: 'Acme', address: '12 Main Road\r\nRosebank', email: 'bookings@acme.example.com', tel: '011 555 0100', vatNumber: '4123456789' }
const CONTACT = {
  fullName: 'Naledi Dlamini',
  companyName: '',
  email: 'naledi@example.org',
  phone: '082 000 0000',
  interest: 'Conference',
  message: 'Programme?',
}
const TRAINING = {
  kind: 'inhouse',
  name: 'Sipho Mokoena',
  email: 'sipho@example.org',
  phone: '011 000 0003',
  organization: 'City of Example',
  message: 'Governance',
}

function rows(count: number) {
  return Array.from({ length: count }, (_, index) => ({ ...DELEGATE, email: `delegate${index}@example.com` }))
}

describe('delegateSchema', () => {
  it('accepts a delegate, one line per value, and drops what it does not know', () => {
    expect(delegateSchema.parse({ ...DELEGATE, name: ' Thandi\r\n Nkosi ', extra: 'x' })).toEqual({
      ...DELEGATE,
      name: 'Thandi Nkosi',
      professionalRegistrationNumber: '',
    })
  })

  it.each([
    [{ ...DELEGATE, name: '' }, [{ path: 'name', code: 'required' }]],
    [{ ...DELEGATE, position: 7 }, [{ path: 'position', code: 'required' }]],
    [{ ...DELEGATE, email: 'a@b' }, [{ path: 'email', code: 'invalid-email' }]],
    [{ ...DELEGATE, name: 'x'.repeat(201) }, [{ path: 'name', code: 'too-long', maximum: 200 }]],
    [
      'not a record',
      [
        { path: 'name', code: 'required' },
        { path: 'position', code: 'required' },
        { path: 'email', code: 'required' },
      ],
    ],
  ])('refuses %j', (input, issues) => {
    expect(issuesOf(delegateSchema, input)).toEqual(issues)
  })
})

describe('companyDetailsSchema', () => {
  it('accepts the details, the address on several lines', () => {
    expect(companyDetailsSchema.parse(COMPANY)).toEqual({ ...COMPANY, address: '12 Main Road\nRosebank', purchaseOrderNumber: '' })
  })

  it('takes no VAT number from a company not registered for VAT', () => {
    expect(companyDetailsSchema.parse({ ...COMPANY, vatNumber: '' }).vatNumber).toBe('')
  })

  it.each(['+27 11 555 0100', '011 555 0100', '082 555 0101', '+44 20 7946 0958', '+1 202 555 0143'])('accepts the telephone number %j', (tel) => {
    expect(companyDetailsSchema.parse({ ...COMPANY, tel }).tel).toBe(tel)
  })

  it('stores names and text without bidirectional controls, which would make them display as other text', () => {
    const parsed = companyDetailsSchema.parse({ ...COMPANY, companyName: 'Invoice\u202Egpj.exe', address: '12 Main\u2066 Road\u2069\nRosebank\u202A' })
    expect(parsed).toMatchObject({ companyName: 'Invoicegpj.exe', address: '12 Main Road\nRosebank' })
  })

  it.each([
    [{ ...COMPANY, companyName: '  ' }, [{ path: 'companyName', code: 'required' }]],
    [{ ...COMPANY, address: 'A'.repeat(1001) }, [{ path: 'address', code: 'too-long', maximum: 1000 }]],
    [{ ...COMPANY, email: '' }, [{ path: 'email', code: 'required' }]],
    [{ ...COMPANY, tel: '1'.repeat(41) }, [{ path: 'tel', code: 'too-long', maximum: 40 }]],
    [{ ...COMPANY, tel: '12345' }, [{ path: 'tel', code: 'invalid-phone' }]],
    [{ ...COMPANY, tel: 'call reception' }, [{ path: 'tel', code: 'invalid-phone' }]],
    [{ ...COMPANY, vatNumber: '5123456789' }, [{ path: 'vatNumber', code: 'invalid-vat-number' }]],
    [{ ...COMPANY, purchaseOrderNumber: 'P'.repeat(61) }, [{ path: 'purchaseOrderNumber', code: 'too-long', maximum: 60 }]],
  ])('refuses %j', (input, issues) => {
    expect(issuesOf(companyDetailsSchema, input)).toEqual(issues)
  })
})

describe('registrationSchemaFor', () => {
  const workshop = registrationSchemaFor(LEGAL_OPINION, SITE_NOW)
  const conference = registrationSchemaFor(RESILIENCE, SITE_NOW)

  it('accepts a complete registration', () => {
    expect(workshop.parse(registrationInput())).toMatchObject({ attendanceOption: 'venue', paymentMethod: 'bank-transfer', legalAgreement: true })
  })

  it.each([
    ['bank-transfer', 'bank-transfer'],
    ['card', 'card'],
    // The specification's values, which the JSON API still takes, become the keys.
    ['Bank Transfer', 'bank-transfer'],
    [' Credit/Debit Card ', 'card'],
  ])('takes the payment method %j as %j', (sent, key) => {
    expect(workshop.parse(registrationInput({ paymentMethod: sent })).paymentMethod).toBe(key)
  })

  it.each<[Record<string, unknown>, FieldIssue[]]>([
    [{ code: '' }, [{ path: 'code', code: 'required' }]],
    [{ delegates: [] }, [{ path: 'delegates', code: 'no-delegates' }]],
    [{ delegates: 'Thandi' }, [{ path: 'delegates', code: 'no-delegates' }]],
    [{ delegates: rows(MAX_DELEGATES + 1) }, [{ path: 'delegates', code: 'too-many-delegates', maximum: MAX_DELEGATES }]],
    [{ delegates: [{ ...DELEGATE, email: '' }] }, [{ path: 'delegates.0.email', code: 'required' }]],
    [{ attendanceOption: '' }, [{ path: 'attendanceOption', code: 'required' }]],
    [{ attendanceOption: 'Venue (R7990.00)' }, [{ path: 'attendanceOption', code: 'invalid-choice' }]],
    [{ attendanceOption: 'table-5' }, [{ path: 'attendanceOption', code: 'option-not-offered' }]],
    [{ paymentMethod: 'Cash' }, [{ path: 'paymentMethod', code: 'invalid-choice' }]],
    [{ paymentMethod: 'Card / EFT / GPay' }, [{ path: 'paymentMethod', code: 'invalid-choice' }]],
    [{ legalAgreement: 'no' }, [{ path: 'legalAgreement', code: 'not-accepted' }]],
    ...INHERITED_NAMES.map((name): [Record<string, unknown>, FieldIssue[]] => [{ paymentMethod: name }, [{ path: 'paymentMethod', code: 'invalid-choice' }]]),
  ])('refuses %j', (override, issues) => {
    expect(issuesOf(workshop, registrationInput(override))).toEqual(issues)
  })

  it.each([
    ['table-5', 5],
    ['table-10', 10],
  ])('caps %s at %i delegates', (option, cap) => {
    const input = registrationInput({ event: 'Resilience', attendanceOption: option })
    expect(issuesOf(conference, { ...input, delegates: rows(cap) })).toEqual([])
    expect(issuesOf(conference, { ...input, delegates: rows(cap + 1) })).toEqual([{ path: 'delegates', code: 'delegate-cap', cap }])
  })

  it('checks the cap even when another field is missing, so one answer lists every problem', () => {
    const input = registrationInput({ event: 'Resilience', attendanceOption: 'table-5', tel: '', delegates: rows(6) })
    expect(issuesOf(conference, input)).toEqual([
      { path: 'tel', code: 'required' },
      { path: 'delegates', code: 'delegate-cap', cap: 5 },
    ])
  })

  it('closes early-bird after its date', () => {
    const late = registrationSchemaFor(RESILIENCE, new Date('2025-06-14T00:00:00+02:00'))
    expect(issuesOf(late, registrationInput({ event: 'Resilience', attendanceOption: 'early-bird' }))).toEqual([
      { path: 'attendanceOption', code: 'option-unavailable' },
    ])
  })
})

describe('contactEnquirySchema', () => {
  it('accepts an enquiry without a company, a legacy interest read as today’s option', () => {
    expect(contactEnquirySchema.parse({ ...CONTACT, interest: 'Sponsership' })).toEqual({ ...CONTACT, interest: 'Sponsorship' })
  })

  it.each([
    [{ fullName: '' }, [{ path: 'fullName', code: 'required' }]],
    [{ companyName: 'x'.repeat(201) }, [{ path: 'companyName', code: 'too-long', maximum: 200 }]],
    [{ email: 'naledi' }, [{ path: 'email', code: 'invalid-email' }]],
    [{ phone: undefined }, [{ path: 'phone', code: 'required' }]],
    [{ phone: '082 00' }, [{ path: 'phone', code: 'invalid-phone' }]],
    [{ interest: '' }, [{ path: 'interest', code: 'required' }]],
    [{ interest: 'Lottery' }, [{ path: 'interest', code: 'invalid-choice' }]],
    [{ interest: 'constructor' }, [{ path: 'interest', code: 'invalid-choice' }]],
    [{ message: '\n\n' }, [{ path: 'message', code: 'required' }]],
    [{ message: 'x'.repeat(5001) }, [{ path: 'message', code: 'too-long', maximum: 5000 }]],
  ])('refuses %j', (override, issues) => {
    expect(issuesOf(contactEnquirySchema, { ...CONTACT, ...override })).toEqual(issues)
  })
})

describe('trainingRequestSchema', () => {
  it('accepts a request of either kind', () => {
    expect(trainingRequestSchema.parse(TRAINING)).toEqual(TRAINING)
    expect(trainingRequestSchema.parse({ ...TRAINING, kind: 'online' }).kind).toBe('online')
  })

  it.each([
    [{ kind: '' }, [{ path: 'kind', code: 'invalid-choice' }]],
    [{ kind: 'classroom' }, [{ path: 'kind', code: 'invalid-choice' }]],
    [{ name: '' }, [{ path: 'name', code: 'required' }]],
    [{ email: 'sipho' }, [{ path: 'email', code: 'invalid-email' }]],
    [{ phone: '' }, [{ path: 'phone', code: 'required' }]],
    [{ phone: '+27 11 000' }, [{ path: 'phone', code: 'invalid-phone' }]],
    [{ organization: 'x'.repeat(201) }, [{ path: 'organization', code: 'too-long', maximum: 200 }]],
    [{ message: ' ' }, [{ path: 'message', code: 'required' }]],
  ])('refuses %j', (override, issues) => {
    expect(issuesOf(trainingRequestSchema, { ...TRAINING, ...override })).toEqual(issues)
  })
})
