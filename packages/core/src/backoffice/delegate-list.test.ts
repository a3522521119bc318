import ExcelJS from 'exceljs'
import { extractText, getDocumentProxy } from 'unpdf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TEST_BACKENDS, openTestDatabase, type TestDatabase } from '../test-support.ts'
import { cancelRegistration } from '../cancellation/cancel.ts'
import { attendanceRegisterPdf } from './attendance-register-pdf.ts'
import { recordBankTransfer } from './bank-transfers.ts'
import { delegateList, delegateListCsv, delegateListEvents, delegateListXlsx, type DelegateList } from './delegate-list.ts'
import { register, MANAGER, STAFF, testContext } from './fixtures.ts'

async function pdfText(pdf: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf))
  const { text } = await extractText(document, { mergePages: true })
  return text.replace(/\s+/g, ' ')
}

describe.each(TEST_BACKENDS)('delegate lists on %s', (backend) => {
  let testDb: TestDatabase
  let list: DelegateList
  let refs: { acme: string; hostile: string }

  beforeEach(async () => {
    testDb = await openTestDatabase(backend)
    const [acme, hostile] = await register(
      testDb.db,
      {},
      {
        companyName: '=HYPERLINK("http://evil.example","Click")',
        delegates: [
          { name: '@Sipho Zulu', position: '-Manager', email: 'sipho@evil.example.com' },
          { name: 'Zoë Adams', position: '+Director, "Finance"', email: 'zoe@evil.example.com' },
        ],
        attendanceOption: 'online',
      },
    )
    await register(testDb.db, { event: 'Resilience', code: 'ERC2025', companyName: 'Another Event Ltd' })
    refs = { acme: acme!, hostile: hostile! }
    await recordBankTransfer(testContext(testDb.db), { reference: refs.acme, amount: '10.00', receivedOn: '2025-03-01', bankReference: 'X1' }, STAFF)
    list = (await delegateList(testContext(testDb.db), 'event-legal-opinion'))!
  })

  afterEach(async () => {
    await testDb.dispose()
  })

  it("lists the event's delegates by company with reference, position, e-mail, option and payment status", async () => {
    expect(list.event).toMatchObject({ id: 'event-legal-opinion', slug: 'legalOpinion', title: 'Legal Opinion Writing 2025', venue: { name: 'Indaba Hotel' } })
    expect(list.rows).toEqual([
      {
        reference: refs.hostile,
        companyName: '=HYPERLINK("http://evil.example","Click")',
        delegateName: '@Sipho Zulu',
        position: '-Manager',
        professionalRegistrationNumber: '',
        email: 'sipho@evil.example.com',
        option: 'Online',
        online: true,
        paymentStatus: 'awaiting-payment',
      },
      {
        reference: refs.hostile,
        companyName: '=HYPERLINK("http://evil.example","Click")',
        delegateName: 'Zoë Adams',
        position: '+Director, "Finance"',
        professionalRegistrationNumber: '',
        email: 'zoe@evil.example.com',
        option: 'Online',
        online: true,
        paymentStatus: 'awaiting-payment',
      },
      {
        reference: refs.acme,
        companyName: 'Acme Legal Services',
        delegateName: 'Thandi Nkosi',
        position: 'Legal Adviser',
        professionalRegistrationNumber: '',
        email: 'thandi@acme.example.com',
        option: 'Venue',
        online: false,
        paymentStatus: 'part-paid',
      },
      {
        reference: refs.acme,
        companyName: 'Acme Legal Services',
        delegateName: 'Pieter van Wyk',
        position: 'Paralegal',
        professionalRegistrationNumber: '',
        email: 'pieter@acme.example.com',
        option: 'Venue',
        online: false,
        paymentStatus: 'part-paid',
      },
    ])
    expect(await delegateList(testContext(testDb.db), 'noSuchEvent')).toBeUndefined()
  })

  it('lists the events with registrations, those not yet over first, soonest first, then the past ones', async () => {
    const legalOpinion = {
      id: 'event-legal-opinion',
      slug: 'legalOpinion',
      title: 'Legal Opinion Writing 2025',
      start: '2025-07-03T06:30:00Z',
      registrations: 2,
      delegates: 4,
    }
    const resilience = {
      id: 'event-resilience',
      slug: 'Resilience',
      title: 'Economic Resilience Conference 2025',
      start: '2025-07-23T05:30:00Z',
      registrations: 1,
      delegates: 2,
    }
    expect(await delegateListEvents(testContext(testDb.db))).toMatchObject([
      { ...legalOpinion, past: false },
      { ...resilience, past: false },
    ])
    const afterLegalOpinion = { ...testContext(testDb.db), siteNow: () => new Date('2025-07-05T08:00:00Z') }
    expect(await delegateListEvents(afterLegalOpinion)).toMatchObject([
      { ...resilience, past: false },
      { ...legalOpinion, past: true },
    ])
    const afterBoth = { ...testContext(testDb.db), siteNow: () => new Date('2025-08-01T08:00:00Z') }
    expect((await delegateListEvents(afterBoth)).map((event) => [event.slug, event.past])).toEqual([
      ['Resilience', true],
      ['legalOpinion', true],
    ])
  })

  it('counts the registrations still standing and the delegates still attending, as the dashboard does', async () => {
    const context = testContext(testDb.db)
    const [partlyCancelled, cancelled] = await register(testDb.db, { companyName: 'Second Company' }, { companyName: 'Third Company' })
    const pieter = await testDb.db.kysely
      .selectFrom('registration_delegates')
      .innerJoin('registrations', 'registrations.id', 'registration_delegates.registration_id')
      .select('registration_delegates.id')
      .where('registrations.reference', '=', partlyCancelled!)
      .where('registration_delegates.name', '=', 'Pieter van Wyk')
      .executeTakeFirstOrThrow()
    await cancelRegistration(context, { reference: partlyCancelled!, delegateIds: [pieter.id], feePercent: 0 }, MANAGER)
    await cancelRegistration(context, { reference: cancelled!, delegateIds: 'all', feePercent: 0 }, MANAGER)

    const legalOpinion = (await delegateListEvents(context)).find((event) => event.id === 'event-legal-opinion')
    // Before: 2 registrations with 4 delegates. Added: one with 2, one of them cancelled, and one cancelled as a whole.
    expect(legalOpinion).toMatchObject({ registrations: 3, delegates: 5 })
    expect((await delegateList(context, 'event-legal-opinion'))!.rows).toHaveLength(5)
  })

  it('writes RFC 4180 CSV with formulas defused', () => {
    const csv = delegateListCsv(list)
    expect(csv).toBe(
      '\uFEFF' +
        [
          'Reference,Company,Delegate,Position,Professional registration number,E-mail,Option,Payment status',
          `${refs.hostile},"'=HYPERLINK(""http://evil.example"",""Click"")",'@Sipho Zulu,'-Manager,,sipho@evil.example.com,Online,Awaiting payment`,
          `${refs.hostile},"'=HYPERLINK(""http://evil.example"",""Click"")",Zoë Adams,"'+Director, ""Finance""",,zoe@evil.example.com,Online,Awaiting payment`,
          `${refs.acme},Acme Legal Services,Thandi Nkosi,Legal Adviser,,thandi@acme.example.com,Venue,Part paid`,
          `${refs.acme},Acme Legal Services,Pieter van Wyk,Paralegal,,pieter@acme.example.com,Venue,Part paid`,
        ].join('\r\n') +
        '\r\n',
    )
  })

  it('writes an Excel workbook whose cells read back as the text stored, never as formulas', async () => {
    const workbook = new ExcelJS.Workbook()
    // exceljs's types name the Buffer of older Node type definitions; the bytes are what it reads.
    await workbook.xlsx.load((await delegateListXlsx(list)) as unknown as ExcelJS.Buffer)
    const sheet = workbook.getWorksheet('Delegates')!
    const values = sheet
      .getSheetValues()
      .slice(1)
      .map((row) => (row as unknown[]).slice(1))
    expect(values).toEqual([
      ['Reference', 'Company', 'Delegate', 'Position', 'Professional registration number', 'E-mail', 'Option', 'Payment status'],
      ...list.rows.map((row) => [
        row.reference,
        row.companyName,
        row.delegateName,
        row.position,
        row.professionalRegistrationNumber,
        row.email,
        row.option,
        row.paymentStatus === 'part-paid' ? 'Part paid' : 'Awaiting payment',
      ]),
    ])
    expect(sheet.getCell('B2').type).toBe(ExcelJS.ValueType.String)
  })

  it('prints the venue sign-in sheet: delegates attending in person sorted by surname, online ones left out, unpaid ones marked', async () => {
    const text = await pdfText(await attendanceRegisterPdf(list, { siteName: 'Example Events', printedAt: new Date('2025-07-01T08:00:00Z') }))
    expect(text).toContain('Attendance register: Legal Opinion Writing 2025')
    expect(text).toContain('Signature')
    const order = ['Thandi Nkosi', 'Pieter van Wyk'].map((name) => text.indexOf(name))
    expect(order.every((position) => position >= 0)).toBe(true)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    // The hostile registration's delegates attend online: not on the venue's sheet.
    expect(text).not.toContain('Zoë Adams')
    expect(text).not.toContain('Sipho Zulu')
    expect(text).toContain('2 delegates')
    expect(text.match(/PART PAID/g)).toHaveLength(2)
  })
})

describe('the attendance register', () => {
  it('has a signature column for each day of a two-day event, and marks only the unpaid', async () => {
    const row = (name: string, paymentStatus: string) => ({
      reference: 'REF1',
      companyName: 'Acme',
      delegateName: name,
      position: 'Analyst',
      professionalRegistrationNumber: '',
      email: 'd@example.com',
      option: 'Venue',
      online: false,
      paymentStatus,
    })
    const list: DelegateList = {
      // 3 and 4 July 2025 in Johannesburg.
      event: { id: 'event-x', slug: 'x', title: 'Two Days', start: '2025-07-03T06:30:00Z', end: '2025-07-04T14:00:00Z', venue: { name: 'Hall', address: '' } },
      rows: [row('Ann Paid', 'paid'), row('Ben Owing', 'awaiting-payment')],
    }
    const text = await pdfText(await attendanceRegisterPdf(list, { siteName: 'Example Events', printedAt: new Date('2025-07-01T08:00:00Z') }))
    expect(text).toContain('Signature Thu 3 Jul')
    expect(text).toContain('Signature Fri 4 Jul')
    expect(text.match(/AWAITING PAYMENT/g)).toHaveLength(1)
    expect(text).toMatch(/Ann Paid Acme REF1 Paid/)
  })

  it('repeats its heading on every page of a long list', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => ({
      reference: `REF${index}`,
      companyName: 'Acme',
      delegateName: `Delegate Surname${String(index).padStart(2, '0')}`,
      position: 'Analyst',
      professionalRegistrationNumber: '',
      email: `d${index}@example.com`,
      option: 'Venue',
      online: false,
      paymentStatus: 'paid',
    }))
    const list: DelegateList = {
      event: { id: 'event-x', slug: 'x', title: 'Big Event', start: '2025-07-03T06:30:00Z', end: '2025-07-03T14:00:00Z', venue: { name: 'Hall', address: '' } },
      rows,
    }
    const pdf = await attendanceRegisterPdf(list, { siteName: 'Example Events', printedAt: new Date('2025-07-01T08:00:00Z') })
    const document = await getDocumentProxy(new Uint8Array(pdf))
    expect(document.numPages).toBeGreaterThan(1)
    const { text } = await extractText(document, { mergePages: false })
    for (const page of text) expect(page).toContain('Attendance register: Big Event')
    expect(text.join(' ')).toContain('Delegate Surname59')
  })
})
