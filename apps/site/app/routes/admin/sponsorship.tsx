import {
  approveSponsorshipDeal,
  cancelSponsorshipDeal,
  createDiscountCode,
  extendDiscountCode,
  listDiscountCodes,
  listSponsorshipDeals,
  newDealDefaults,
  recordDealBenefits,
  recordSponsorshipDeal,
  remindNow,
  resendDealCodes,
  voidDiscountCode,
} from '@events/core'
import { eventSlugsQuery, sponsorPackagesQuery, type EventSlugsQueryResult, type SponsorPackagesQueryResult } from '@events/content'
import { formatRand, type OptionKey } from '@events/pricing'
import { data, Form } from 'react-router'
import { AdminField } from '../../components/admin/AdminField'
import { AdminTable } from '../../components/admin/AdminTable'
import { FieldRow, Options, SubmitButton } from '../../components/admin/FormControls'
import { paymentReminderText } from '../../lib/admin-format'
import { adminMeta } from '../../lib/admin-meta'
import { formText, requireStaffMember, staffFormPost } from '../../lib/admin.server'
import { readBackOffice, runStaffCommand } from '../../lib/backoffice.server'
import { servicesContext } from '../../lib/services.server'
import type { Route } from './+types/sponsorship'

export function meta() {
  return adminMeta('Sponsorship and discount codes')
}

const DEAL_FIELDS = [
  { name: 'companyName', label: 'Sponsor company' },
  { name: 'address', label: 'Address', multiline: true },
  { name: 'vatNumber', label: 'VAT number (VAT vendors only)', required: false },
  { name: 'purchaseOrderNumber', label: 'Purchase order number', required: false },
  { name: 'contactName', label: 'Contact name' },
  { name: 'contactEmail', label: 'Contact e-mail', type: 'email' },
  { name: 'contactTel', label: 'Contact telephone', type: 'tel' },
  { name: 'agreedPrice', label: 'Agreed price excl. VAT (rand)' },
] as const

/** The options a staff code may be limited to, as the form names them. */
const CODE_OPTIONS: ReadonlyArray<readonly [OptionKey, string]> = [
  ['venue', 'At the venue (full price)'],
  ['early-bird', 'Early bird'],
  ['online', 'Online'],
  ['table-5', 'Table of 5'],
  ['table-10', 'Table of 10'],
]

const CODE_FIELDS = ['code', 'kind', 'percent', 'amount', 'event', 'maxUses', 'validFrom', 'validUntil', 'sourceLabel'] as const

export async function loader(args: Route.LoaderArgs) {
  const { headers, user } = await requireStaffMember(args)
  const { content } = args.context.get(servicesContext)
  const [deals, codes, dealDefaults, events, packages] = await Promise.all([
    readBackOffice(args.context, (backOffice) => listSponsorshipDeals(backOffice)),
    readBackOffice(args.context, (backOffice) => listDiscountCodes(backOffice)),
    readBackOffice(args.context, (backOffice) => newDealDefaults(backOffice)),
    content.fetch<EventSlugsQueryResult>(eventSlugsQuery),
    content.fetch<SponsorPackagesQueryResult>(sponsorPackagesQuery),
  ])
  return data(
    {
      mayApprove: user.role === 'owner' || user.role === 'manager',
      codesOncePaidByDefault: dealDefaults.sendCodesWhen === 'paid',
      deals,
      codes,
      events: events.map((event) => [event.slug ?? '', event.title ?? event.slug ?? ''] as const),
      packages: packages.map(
        (sponsorPackage) =>
          [
            sponsorPackage._id,
            `${sponsorPackage.title ?? ''}${sponsorPackage.priceExclVat ? ` (${formatRand(Math.round(sponsorPackage.priceExclVat * 100))} excl. VAT)` : ''}`,
          ] as const,
      ),
    },
    { headers },
  )
}

export async function action(args: Route.ActionArgs) {
  const { session, form } = await staffFormPost(args)
  const { user, headers } = session
  const intent = formText(form, 'intent')
  // The options a code is limited to are ticked boxes of one name: kept as one comma-separated value, as the core reads it.
  const values = {
    ...Object.fromEntries([...form.keys()].map((name) => [name, formText(form, name)])),
    optionKeys: form.getAll('optionKeys').map(String).join(','),
  }
  const run = async () => {
    switch (intent) {
      case 'record-deal':
        return runStaffCommand(args.context, user, recordSponsorshipDeal, values)
      case 'approve':
        return runStaffCommand(args.context, user, approveSponsorshipDeal, values)
      case 'resend':
        return runStaffCommand(args.context, user, resendDealCodes, values)
      case 'remind':
        return runStaffCommand(args.context, user, remindNow, values)
      case 'cancel-deal':
        return runStaffCommand(args.context, user, cancelSponsorshipDeal, values)
      case 'benefits':
        return runStaffCommand(args.context, user, recordDealBenefits, values)
      case 'create-code':
        return runStaffCommand(args.context, user, createDiscountCode, values)
      case 'void-code':
        return runStaffCommand(args.context, user, voidDiscountCode, values)
      default:
        return runStaffCommand(args.context, user, extendDiscountCode, values)
    }
  }
  const outcome = await run()
  if (!outcome.ok)
    return data(
      { intent, message: outcome.message, fields: outcome.fields as Record<string, string>, values: values as Record<string, string>, done: null },
      { status: outcome.status, headers },
    )
  return data(
    { intent, message: null, fields: {} as Record<string, string>, values: {} as Record<string, string>, done: doneMessage(intent, outcome.value) },
    { headers },
  )
}

function doneMessage(intent: string, value: unknown): string {
  const result = value as { status?: string; code?: string; invoiceNumber?: string; codesEmailed?: boolean; words?: number; outstandingCents?: number }
  const codes = result.codesEmailed === false ? 'e-mailed to the contact; the codes follow once it is paid' : 'the codes e-mailed to the contact'
  switch (intent) {
    case 'record-deal':
      return result.status === 'approved'
        ? `Deal recorded and approved: tax invoice ${result.invoiceNumber ?? ''} issued and ${codes}.`
        : 'Deal recorded. Its price is below the package’s, so a manager must approve it before it is invoiced.'
    case 'approve':
      return `Deal approved: tax invoice ${result.invoiceNumber ?? ''} issued and ${codes}.`
    case 'resend':
      return 'The codes were e-mailed to the contact again.'
    case 'remind':
      return `A payment reminder for ${formatRand(result.outstandingCents ?? 0)} is on its way to the sponsor’s contact.`
    case 'cancel-deal':
      return `Deal cancelled: its codes no longer work${(value as { creditNoteNumber?: string }).creditNoteNumber ? `, and credit note ${(value as { creditNoteNumber?: string }).creditNoteNumber} was e-mailed to the contact` : ''}.`
    case 'benefits':
      return `Benefits recorded (promotional text: ${result.words ?? 0} words).`
    case 'create-code':
      return `Discount code ${result.code ?? ''} created.`
    case 'void-code':
      return `Code ${result.code ?? ''} voided: it is refused from now on.`
    default:
      return `Code ${result.code ?? ''} now runs until its new last day.`
  }
}

/** The options a code is limited to, in the form's words ("Online, Table of 10"). */
function codeOptionNames(optionKeys: string): string {
  return CODE_OPTIONS.filter(([key]) => optionKeys.split(',').includes(key))
    .map(([, label]) => label)
    .join(', ')
}

function delivered(at: string | null): string {
  return at ? `Received ${at.slice(0, 10)}` : 'Not yet'
}

export default function Sponsorship({ loaderData, actionData }: Route.ComponentProps) {
  const { deals, codes, events, packages, mayApprove, codesOncePaidByDefault } = loaderData
  const fields: Record<string, string> = actionData?.fields ?? {}
  const typed = (intent: string, name: string) => (actionData?.intent === intent ? (actionData.values[name] ?? '') : '')
  return (
    <>
      <h1>Sponsorship and discount codes</h1>
      {actionData?.done ? (
        <p className="admin-notice" role="status">
          {actionData.done}
        </p>
      ) : null}
      {actionData?.message ? (
        <p className="form__error" role="alert">
          {actionData.message} {Object.values(fields).join(' ')}
        </p>
      ) : null}

      <section aria-labelledby="deals-heading">
        <h2 id="deals-heading">Sponsorship deals</h2>
        {deals.length === 0 ? <p>No deals recorded yet.</p> : null}
        {deals.map(({ deal, belowListPrice, invoice, paidCents, promoTextWords, reminders }) => (
          <article key={deal.id} className="admin-deal" aria-labelledby={`deal-${deal.id}`}>
            <h3 id={`deal-${deal.id}`}>
              {deal.company_name}: {deal.package_title}, {deal.event_title}
            </h3>
            <dl className="admin-facts">
              <dt>Reference</dt>
              <dd>{deal.reference}</dd>
              <dt>Agreed price</dt>
              <dd>
                {formatRand(deal.agreed_price_cents)} excl. VAT ({formatRand(deal.total_cents)} incl. VAT)
                {belowListPrice && deal.package_price_cents !== null ? `, below the package’s ${formatRand(deal.package_price_cents)}` : ''}
              </dd>
              <dt>Status</dt>
              <dd>
                {deal.status === 'approved'
                  ? `Approved by ${deal.approved_by ?? ''}`
                  : deal.status === 'cancelled'
                    ? 'Cancelled'
                    : 'Awaiting a manager’s approval'}
              </dd>
              <dt>Contact</dt>
              <dd>
                {deal.contact_name}, {deal.contact_email}, {deal.contact_tel}
              </dd>
              <dt>Tax invoice</dt>
              <dd>{invoice ? <a href={`/admin/sponsorship/${deal.id}/invoice.pdf`}>{invoice.number} (PDF)</a> : 'Issued on approval'}</dd>
              <dt>Paid</dt>
              <dd>
                {deal.paid_at
                  ? 'In full'
                  : invoice
                    ? `${formatRand(paidCents)} of ${formatRand(invoice.totalCents)}, by transfer with the reference ${deal.reference}`
                    : 'Nothing yet'}
              </dd>
              <dt>Payment reminders</dt>
              <dd>
                {reminders.length === 0 ? (
                  'None sent'
                ) : (
                  <ul>
                    {reminders.map((reminder, index) => (
                      <li key={index}>{paymentReminderText(reminder)}</li>
                    ))}
                  </ul>
                )}
              </dd>
              <dt>Codes</dt>
              <dd>
                {deal.codes_sent_at
                  ? `E-mailed to the contact`
                  : deal.send_codes_when === 'paid'
                    ? 'E-mailed once the invoice is paid in full'
                    : 'E-mailed on approval'}
              </dd>
              <dt>Benefits</dt>
              <dd>
                {deal.complimentary_seats} complimentary seats, {deal.participant_discount_percent}% for participants, {deal.promotional_text_words} words of
                promotional text ({deal.promo_text_received_at ? `${promoTextWords} received` : 'not yet received'}), {deal.literature_pages} pages of
                literature ({delivered(deal.literature_received_at)}), {deal.speaking_slot || 'no speaking slot'}
                {deal.speaking_slot ? ` (${deal.slot_scheduled_for ? `scheduled: ${deal.slot_scheduled_for}` : 'not scheduled'})` : ''}
              </dd>
            </dl>
            {deal.status === 'awaiting-approval' && mayApprove ? (
              <Form method="post">
                <input type="hidden" name="dealId" value={deal.id} />
                <SubmitButton name="intent" value="approve">
                  Approve the deal at {formatRand(deal.agreed_price_cents)}
                </SubmitButton>
              </Form>
            ) : null}
            {deal.status === 'approved' ? (
              <Form method="post">
                <input type="hidden" name="dealId" value={deal.id} />
                <SubmitButton name="intent" value="resend" secondary>
                  E-mail the codes again
                </SubmitButton>
              </Form>
            ) : null}
            {deal.status === 'approved' && invoice && !deal.paid_at ? (
              <Form method="post">
                <input type="hidden" name="reference" value={deal.reference} />
                <SubmitButton name="intent" value="remind" secondary>
                  Remind now
                </SubmitButton>
              </Form>
            ) : null}
            {deal.status !== 'cancelled' && mayApprove ? (
              <Form method="post">
                <input type="hidden" name="dealId" value={deal.id} />
                <SubmitButton name="intent" value="cancel-deal" secondary>
                  Cancel the deal{deal.status === 'approved' ? ' and credit its invoice' : ''}
                </SubmitButton>
              </Form>
            ) : null}
            <Form method="post" className="form">
              <input type="hidden" name="dealId" value={deal.id} />
              <AdminField
                name="promoText"
                label={`Promotional text (at most ${deal.promotional_text_words} words)`}
                value={typed('benefits', 'promoText') || deal.promo_text}
                error={actionData?.intent === 'benefits' && actionData.values.dealId === deal.id ? fields.promoText : undefined}
                multiline
                required={false}
              />
              <FieldRow id={`literature-${deal.id}`} label="Literature received">
                <input
                  id={`literature-${deal.id}`}
                  type="checkbox"
                  name="literatureReceived"
                  value="yes"
                  defaultChecked={deal.literature_received_at !== null}
                />
              </FieldRow>
              <AdminField name="slotScheduledFor" label="Speaking slot scheduled for" value={deal.slot_scheduled_for} required={false} />
              <SubmitButton name="intent" value="benefits" secondary>
                Save what was delivered
              </SubmitButton>
            </Form>
          </article>
        ))}
      </section>

      <section aria-labelledby="record-deal-heading">
        <h2 id="record-deal-heading">Record a deal</h2>
        <p>
          A deal at the package’s price is approved at once; below it, a manager approves it. Approval issues the tax invoice and e-mails the codes, or the
          invoice alone when the codes wait for the payment ({codesOncePaidByDefault ? 'ticked' : 'unticked'} by default, as the site settings in the Studio
          say).
        </p>
        <Form method="post" className="form">
          <FieldRow id="field-event" label="Event">
            <select id="field-event" name="event" defaultValue={typed('record-deal', 'event')} required>
              <Options choices={events} />
            </select>
          </FieldRow>
          <FieldRow id="field-packageId" label="Sponsor package">
            <select id="field-packageId" name="packageId" defaultValue={typed('record-deal', 'packageId')} required>
              <Options choices={packages} />
            </select>
          </FieldRow>
          {DEAL_FIELDS.map((field) => (
            <AdminField
              key={field.name}
              name={field.name}
              label={field.label}
              value={typed('record-deal', field.name)}
              error={actionData?.intent === 'record-deal' ? fields[field.name] : undefined}
              multiline={'multiline' in field}
              required={!('required' in field)}
              type={'type' in field ? field.type : 'text'}
            />
          ))}
          <FieldRow id="field-sendCodesWhen" label="Send the codes once the invoice is paid (else on approval)">
            <input
              id="field-sendCodesWhen"
              type="checkbox"
              name="sendCodesWhen"
              value="paid"
              // A refused deal keeps what was ticked; a new one starts from the site settings' choice.
              defaultChecked={
                actionData?.intent === 'record-deal' && actionData.message ? typed('record-deal', 'sendCodesWhen') === 'paid' : codesOncePaidByDefault
              }
            />
          </FieldRow>
          <SubmitButton name="intent" value="record-deal">
            Record the deal
          </SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="codes-heading">
        <h2 id="codes-heading">Discount codes</h2>
        <AdminTable
          caption="Discount codes with their uses: the registrations using each, cancelled ones marked"
          scrollLabel="Discount codes"
          columns={['Code', 'Gives', 'Event', 'Uses', 'Valid', 'Registrations', { label: 'Change', hidden: true }]}
        >
          {codes.map(({ row, uses, registrations }) => (
            <tr key={row.id}>
              <th scope="row">{row.code}</th>
              <td>
                {row.source_label}:{' '}
                {row.kind === 'percent'
                  ? `${row.percent}%`
                  : row.kind === 'amount'
                    ? `${formatRand(row.amount_cents ?? 0)} per delegate`
                    : 'complimentary seat'}
                {row.option_keys ? ` (${codeOptionNames(row.option_keys)} only)` : row.includes_tables ? ' (tables too)' : ''}
              </td>
              <td>{row.event_title ?? 'Every event'}</td>
              <td>
                {uses}
                {row.max_uses === null ? '' : ` of ${row.max_uses}`}
              </td>
              <td>{row.voided_at ? 'Voided' : `${row.valid_from ?? 'now'} to ${row.valid_until ?? 'no end'}`}</td>
              <td>{registrations.map((use) => `${use.reference}${use.cancelled ? ' (cancelled)' : ''}`).join(', ') || 'None'}</td>
              <td>
                {row.voided_at ? null : (
                  <Form method="post">
                    <input type="hidden" name="codeId" value={row.id} />
                    <label htmlFor={`until-${row.id}`} className="visually-hidden">
                      Last day of {row.code}
                    </label>
                    <input id={`until-${row.id}`} type="date" name="validUntil" defaultValue={row.valid_until ?? ''} />
                    <SubmitButton name="intent" value="extend-code" secondary>
                      Set last day
                    </SubmitButton>
                    <SubmitButton name="intent" value="void-code" secondary>
                      Void
                    </SubmitButton>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
        <h3>Create a code</h3>
        <Form method="post" className="form">
          <FieldRow id="field-kind" label="It takes off">
            <select id="field-kind" name="kind" defaultValue={typed('create-code', 'kind') || 'percent'}>
              <Options
                choices={[
                  ['percent', 'A percentage of each delegate’s price'],
                  ['amount', 'A rand amount off each delegate’s price'],
                  ['complimentary', 'Everything: a complimentary seat'],
                ]}
              />
            </select>
          </FieldRow>
          {CODE_FIELDS.filter((name) => name !== 'kind').map((name) => (
            <AdminField
              key={name}
              name={name}
              label={
                {
                  code: 'Code (empty: one is made up)',
                  percent: 'Percentage',
                  amount: 'Amount per delegate (rand)',
                  event: 'Event slug (empty: every event)',
                  maxUses: 'Uses (empty: no limit)',
                  validFrom: 'First day',
                  validUntil: 'Last day',
                  sourceLabel: 'Named on the invoice as',
                }[name] ?? name
              }
              value={typed('create-code', name)}
              error={actionData?.intent === 'create-code' ? fields[name] : undefined}
              required={false}
              type={name === 'validFrom' || name === 'validUntil' ? 'date' : 'text'}
            />
          ))}
          <fieldset className="form__group">
            <legend>Prices it takes off (none ticked: every per-delegate price, no table)</legend>
            {CODE_OPTIONS.map(([key, label]) => (
              <FieldRow key={key} id={`code-option-${key}`} label={label}>
                <input
                  id={`code-option-${key}`}
                  type="checkbox"
                  name="optionKeys"
                  value={key}
                  defaultChecked={typed('create-code', 'optionKeys').split(',').includes(key)}
                />
              </FieldRow>
            ))}
          </fieldset>
          <SubmitButton name="intent" value="create-code">
            Create the code
          </SubmitButton>
        </Form>
      </section>
    </>
  )
}
