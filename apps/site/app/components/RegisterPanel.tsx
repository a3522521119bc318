import type { ContentQueryResults } from '@events/content/browser'
import type { DiscountTerms } from '@events/core'
import { MAX_DELEGATES as MAX_QUOTE_DELEGATES, normaliseDiscountCode, PAYMENT_METHOD_LABELS } from '@events/core/choices'
import { discountAppliesTo, isOptionKey, isRegistrationOpen, isTableOption, optionAvailability, quote, randsToCents } from '@events/pricing'
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Link, useFetcher, useLoaderData } from 'react-router'
import {
  addDelegate,
  asksAttendance,
  blankDraft,
  delegateAttendance,
  draftFromForm,
  fitDelegatesToOption,
  priceDraft,
  removeDelegate,
  type DiscountLinkShown,
  type DraftChange,
  type OfferedOption,
  type RegistrationDraft,
  type RegistrationOutcome,
} from '../lib/registration-draft'
import { useSiteNow } from '../lib/site-clock'
import { useSiteSettings } from '../lib/site-settings'
import { ErrorSummary, HoneypotField, SuccessMessage, type SummaryField } from './FormMessages'
import { BankDetailsList } from './BankDetailsList'
import { Amount } from './Amount'
import { useEntriesBeforeHydration } from './enhancement'

type EventPage = NonNullable<ContentQueryResults['eventPage']>

// Shown only on a sold-out event, so its code loads only there.
const WaitingListForm = lazy(() => import('./WaitingListForm').then((module) => ({ default: module.WaitingListForm })))

/** What the server counted of the event's seats: its notice ("Only 4 seats left at the venue"), and what is sold out. */
export interface SeatsShown {
  notice?: string | undefined
  venueSoldOut: boolean
  onlineSoldOut: boolean
  soldOut: boolean
}

/** A waiting-list offer link, as the server judged it: the seats it holds (and for whom), or why it holds none. */
export type OfferShown =
  | {
      status: 'held'
      token: string
      seats: number
      attendance: 'venue' | 'online'
      until: string
      name: string
      companyName: string
      email: string
      tel: string
    }
  | { status: 'expired' | 'used' }

const offerRefusals = {
  expired:
    'This waiting-list offer is no longer valid: its time ran out or it was withdrawn, and its seats went to the next person waiting. You can join the waiting list again below, or contact us.',
  used: 'This waiting-list offer was already used to register: your registration’s page is in the confirmation e-mail.',
} as const

/**
 * The Register tab: the registration form while registration is open and seats remain (or a waiting-list offer holds
 * seats for this visitor), otherwise a closed message, or on a sold-out event the waiting list's form. `outcome` is
 * the page action's answer when the form was posted without JavaScript.
 */
export function RegisterPanel({
  event,
  outcome,
  quoteRefusal = null,
}: {
  event: EventPage
  outcome?: RegistrationOutcome | undefined
  /** Why the last quotation request was refused, in the visitor's words. */
  quoteRefusal?: string | null
}) {
  // Read here rather than passed down by the event page, whose own script then stays as small as it was.
  const { seats, offer, discountLink, quotation } = useLoaderData<{
    seats: SeatsShown
    offer?: OfferShown | undefined
    discountLink?: DiscountLinkShown | undefined
    quotation?: QuotationShown | undefined
  }>()
  const held = offer?.status === 'held' ? offer : undefined
  const offerRefusal =
    offer && offer.status !== 'held' ? (
      <p className="form__error" role="alert">
        {offerRefusals[offer.status]}
      </p>
    ) : null
  const now = useSiteNow()
  const settings = useSiteSettings()
  const schedule = { start: event.start ?? '', registrationClosesAt: event.registrationClosesAt }
  const open = event.start ? isRegistrationOpen(schedule, now) : false
  const contactHref = `/${event.kind}/${event.slug}/contact`
  if (!open) {
    return (
      <section aria-labelledby="register-title">
        <h2 id="register-title">Registration is closed</h2>
        <p>Registration for {event.title} has closed. If you would still like to attend, or want to hear about the next edition, please contact us.</p>
        <Link className="button" to={contactHref}>
          Contact us
        </Link>
      </section>
    )
  }
  const waitingListHref = `/${event.kind}/${event.slug}/waiting-list`
  if (seats.soldOut && !held) {
    const kinds = new Set((event.priceOptions ?? []).map((option) => (option.key === 'online' ? 'online' : 'venue')))
    return (
      <section aria-labelledby="register-title">
        <h2 id="register-title">Sold out</h2>
        {offerRefusal}
        <p>
          Every seat of {event.title} is taken. Join the waiting list: when seats are given back we offer them in the order people joined, by e-mail, with a
          private link that holds them for you for a limited time.
        </p>
        <Suspense>
          <WaitingListForm action={waitingListHref} attendances={(['venue', 'online'] as const).filter((kind) => kinds.has(kind))} />
        </Suspense>
        <p>
          Questions? <Link to={contactHref}>Contact us</Link>.
        </p>
      </section>
    )
  }
  // When the room is full, only online attendance is still offered (unless an offer holds seats in it), and the reverse.
  const soldOutOption = (key: string) =>
    key === 'online' ? seats.onlineSoldOut && held?.attendance !== 'online' : seats.venueSoldOut && held?.attendance !== 'venue'
  const options: OfferedOption[] = (event.priceOptions ?? []).flatMap((option) =>
    isOptionKey(option.key)
      ? [
          {
            key: option.key,
            label: option.label ?? option.key,
            amount: option.amount ?? 0,
            available: optionAvailability({ key: option.key, earlyBirdUntil: option.earlyBirdUntil }, schedule, now).available && !soldOutOption(option.key),
            soldOut: soldOutOption(option.key),
          },
        ]
      : [],
  )
  return (
    <section aria-labelledby="register-title">
      <h2 id="register-title">Registration</h2>
      {offerRefusal}
      {held ? (
        <p className="seat-notice waiting-list-offer">
          {held.seats}{' '}
          {held.attendance === 'venue'
            ? held.seats === 1
              ? 'seat at the venue is'
              : 'seats at the venue are'
            : held.seats === 1
              ? 'place online is'
              : 'places online are'}{' '}
          held for you until {held.until}. Register below to take {held.seats === 1 ? 'it' : 'them'} up; after that {held.seats === 1 ? 'it goes' : 'they go'}{' '}
          to the next person waiting.
        </p>
      ) : (
        seats.notice && <p className="seat-notice">{seats.notice}</p>
      )}
      {seats.venueSoldOut && !held && (
        <p>
          Want a seat at the venue? <Link to={waitingListHref}>Join the waiting list</Link>.
        </p>
      )}
      <RegistrationForm
        key={outcome?.draft ? JSON.stringify(outcome.draft) : 'blank'}
        offer={held}
        event={event}
        options={options}
        vatRate={settings?.vatRate ?? 0.15}
        bankDetails={settings?.bankDetails ?? null}
        outcome={outcome}
        quoteRefusal={quoteRefusal}
        discountLink={discountLink}
        quotation={quotation}
      />
    </section>
  )
}

type BankDetails = NonNullable<NonNullable<ReturnType<typeof useSiteSettings>>['bankDetails']>

const detailFields: Array<{ name: 'companyName' | 'address' | 'email' | 'tel'; label: string; type: string; autoComplete: string }> = [
  { name: 'companyName', label: 'Company name', type: 'text', autoComplete: 'organization' },
  { name: 'address', label: 'Address', type: 'textarea', autoComplete: 'street-address' },
  { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email' },
  { name: 'tel', label: 'Telephone', type: 'tel', autoComplete: 'tel' },
]

// Asked after the contact details; the VAT number is only wanted (and checked) from a company registered for VAT.
const VAT_REGISTERED_CHOICES = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No, the company is not a VAT vendor' },
] as const

const delegateFields = [
  { name: 'name', label: 'Name', type: 'text' },
  { name: 'position', label: 'Position', type: 'text' },
  { name: 'email', label: 'E-mail', type: 'email' },
] as const

function idFor(name: string): string {
  return `register-${name.replaceAll('.', '-')}`
}

/** A quotation's link as the event page's loader reads it (`quotationPrefill`). */
interface QuotationShown {
  quotationNumber: string
  companyName: string
  address: string
  attendanceOption: string
  delegateCount: number
  onlineCount: number
}

function summaryFields(draft: RegistrationDraft, codeLabel: string): SummaryField[] {
  const field = (name: string, label: string) => ({ name, id: idFor(name), label })
  return [
    field('event', 'Event'),
    field('attendanceOption', 'Attendance option'),
    field('code', codeLabel),
    ...detailFields.map((detail) => field(detail.name, detail.label)),
    field('vatRegistered', 'Registered for VAT'),
    field('vatNumber', 'VAT number'),
    field('purchaseOrderNumber', 'Purchase order number'),
    field('quotationNumber', 'Quotation number'),
    field('delegates', 'Delegates'),
    ...draft.delegates.flatMap((_, row) => [
      ...[...delegateFields, { name: 'professionalRegistrationNumber', label: 'Professional registration number' }].map((delegate) =>
        field(`delegates.${row}.${delegate.name}`, `Delegate ${row + 1} ${delegate.label.toLowerCase()}`),
      ),
      field(`delegates.${row}.attendance`, `Delegate ${row + 1} attends`),
    ]),
    field('paymentMethod', 'Payment method'),
    field('discountCode', 'Discount code'),
    field('legalAgreement', 'Legal agreement'),
  ]
}

function RegistrationForm({
  event,
  options,
  vatRate,
  bankDetails,
  outcome,
  quoteRefusal,
  offer,
  discountLink,
  quotation,
}: {
  event: EventPage
  options: OfferedOption[]
  vatRate: number
  bankDetails: BankDetails | null
  outcome: RegistrationOutcome | undefined
  quoteRefusal: string | null
  /** The waiting-list offer the visitor registers through: its details start the form, its token goes with it. */
  offer: Extract<OfferShown, { status: 'held' }> | undefined
  discountLink: DiscountLinkShown | undefined
  /** The quotation whose link the visitor came by: the form starts with its number, company, option and delegates. */
  quotation: QuotationShown | undefined
}) {
  const fetcher = useFetcher<RegistrationOutcome>({ key: `register:${event.slug}` })
  const [draft, setDraft] = useState<RegistrationDraft>(
    () =>
      outcome?.draft ?? {
        ...blankDraft(event.code ?? ''),
        ...(offer ? { companyName: offer.companyName, email: offer.email, tel: offer.tel } : {}),
        ...(discountLink ? { discountCode: discountLink.code } : {}),
        ...(quotation
          ? {
              quotationNumber: quotation.quotationNumber,
              companyName: quotation.companyName,
              address: quotation.address,
              attendanceOption: quotation.attendanceOption,
              // The quotation's online delegates are the last listed.
              delegates: Array.from({ length: quotation.delegateCount }, (_, row) => ({
                name: '',
                position: '',
                email: '',
                attendance: row >= quotation.delegateCount - quotation.onlineCount ? 'online' : '',
              })),
            }
          : {}),
      },
  )
  // What the code last checked gives: from the page's `?code=`, a round trip without JavaScript, or the Apply button.
  const [checkedDiscount, setCheckedDiscount] = useState<DiscountTerms | undefined>(outcome ? outcome.discount : discountLink?.discount)
  const [notice, setNotice] = useState<string | undefined>(outcome?.notice)
  // Hydration renders the server's draft; what the visitor entered before then becomes the draft right after,
  // read by the same parser the server uses for a posted form.
  const entriesBeforeHydration = useEntriesBeforeHydration('form.registration-form')
  useLayoutEffect(() => {
    if (entriesBeforeHydration) setDraft(draftFromForm(entriesBeforeHydration))
  }, [entriesBeforeHydration])
  // The page is the same for every visitor (it is cached), so its form carries no submission token until this
  // browser makes its own: resubmitting the form (a double click, the back button) then makes one registration.
  useEffect(() => {
    setDraft((current) => (current.token ? current : { ...current, token: crypto.randomUUID() }))
  }, [])
  const summaryRef = useRef<HTMLDivElement>(null)

  const busy = fetcher.state !== 'idle'
  const answer = busy ? undefined : (fetcher.data ?? outcome)
  const error = answer?.error
  const fieldErrors = error?.fields ?? {}
  const codeLabel = event.kind === 'conference' ? 'Conference code' : 'Workshop code'

  useEffect(() => {
    if (fetcher.data?.error) summaryRef.current?.focus()
    if (fetcher.data) setCheckedDiscount(fetcher.data.discount)
  }, [fetcher.data])

  const apply = (change: DraftChange) => {
    setDraft(change.draft)
    setNotice(change.notice)
  }
  const set = <Name extends keyof RegistrationDraft>(name: Name, value: RegistrationDraft[Name]) => setDraft((current) => ({ ...current, [name]: value }))
  const setDelegate = (row: number, name: keyof RegistrationDraft['delegates'][number], value: string) =>
    setDraft((current) => ({ ...current, delegates: current.delegates.map((delegate, index) => (index === row ? { ...delegate, [name]: value } : delegate)) }))

  // A code edited since it was checked gives nothing until it is checked again.
  const discount = checkedDiscount && checkedDiscount.code === normaliseDiscountCode(draft.discountCode) ? checkedDiscount : undefined
  const price = priceDraft(draft, options, vatRate, discount)
  const discountMisses = discount !== undefined && price.lines.length > 0 && price.lines.every((line) => !discountAppliesTo(discount.scope, line.option.key))
  // Each delegate says whether they attend at the venue or online, when the event offers both for the chosen option.
  const chosenKey = isOptionKey(draft.attendanceOption) ? draft.attendanceOption : undefined
  const askAttendance = chosenKey !== undefined && asksAttendance(draft, options)
  const discountFieldError = fieldErrors.discountCode ?? (fetcher.data === undefined && !outcome ? discountLink?.refusal : undefined)
  const paysByCard = draft.paymentMethod === 'card'
  const vatPercent = `${Math.round(vatRate * 10000) / 100}%`
  const errorAttributes = (name: string) => (fieldErrors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `${idFor(name)}-error` } : {})
  const errorText = (name: string) =>
    fieldErrors[name] ? (
      <p className="form__error" id={`${idFor(name)}-error`}>
        {fieldErrors[name]}
      </p>
    ) : null

  if (answer?.received) {
    return <SuccessMessage>Thank you. Your registration was received.</SuccessMessage>
  }

  // An offer's token stays in the address, so the answer to a post made without JavaScript still holds its seats.
  const action = `/${event.kind}/${event.slug}?tab=register${offer ? `&offer=${encodeURIComponent(offer.token)}` : ''}`
  // Without JavaScript these buttons are round trips: the answer opens where the visitor was, not at the page's top.
  const backToDelegates = `${action}#${idFor('delegates')}`
  const backToPayment = `${action}#${idFor('paymentMethod')}`

  return (
    <>
      <fetcher.Form method="post" action={action} className="form registration-form" noValidate>
        {error && (
          <div ref={summaryRef} tabIndex={-1}>
            <ErrorSummary title={error.message} fields={summaryFields(draft, codeLabel)} messages={fieldErrors} />
          </div>
        )}
        <input type="hidden" name="token" value={draft.token} />
        <HoneypotField idPrefix="register" />
        <OrderSummary draft={draft} options={options} price={price} vatPercent={vatPercent} discount={discount} />
        <div className="registration-form__fields">
          <fieldset className="form__group" aria-describedby={fieldErrors.attendanceOption ? `${idFor('attendanceOption')}-error` : undefined}>
            <legend id={idFor('attendanceOption')} tabIndex={-1}>
              Attendance option
            </legend>
            {options.map((option) => {
              const unit = randsToCents(option.amount)
              const withVat = isOptionKey(option.key) ? quote({ key: option.key, amountCents: unit }, 1, vatRate).totalCents : unit
              const perDelegate = option.key === 'table-5' || option.key === 'table-10' ? 'per table' : 'per delegate'
              return (
                <div className="form__choice" key={option.key}>
                  <input
                    type="radio"
                    id={`register-option-${option.key}`}
                    name="attendanceOption"
                    value={option.key}
                    checked={draft.attendanceOption === option.key}
                    disabled={!option.available}
                    aria-describedby={option.available ? undefined : `register-option-${option.key}-closed`}
                    onChange={() => apply(fitDelegatesToOption({ ...draft, attendanceOption: option.key }))}
                  />
                  <label htmlFor={`register-option-${option.key}`}>
                    {option.label}: <Amount cents={unit} /> excl. VAT (<Amount cents={withVat} /> incl. VAT) {perDelegate}
                    {!option.available && (
                      <span className="form__closed" id={`register-option-${option.key}-closed`}>
                        {' '}
                        {option.soldOut ? '(sold out)' : '(closed)'}
                      </span>
                    )}
                  </label>
                </div>
              )
            })}
            {errorText('attendanceOption')}
          </fieldset>

          <div className="form__field">
            <label htmlFor={idFor('code')}>{codeLabel} (required)</label>
            <input
              id={idFor('code')}
              name="code"
              required
              value={draft.code}
              onChange={(change) => set('code', change.target.value)}
              {...errorAttributes('code')}
            />
            {errorText('code')}
          </div>

          {detailFields.map((detail) => (
            <div className="form__field" key={detail.name}>
              <label htmlFor={idFor(detail.name)}>{detail.label}</label>
              {detail.type === 'textarea' ? (
                <textarea
                  id={idFor(detail.name)}
                  name={detail.name}
                  rows={3}
                  required
                  autoComplete={detail.autoComplete}
                  value={draft[detail.name]}
                  onChange={(change) => set(detail.name, change.target.value)}
                  {...errorAttributes(detail.name)}
                />
              ) : (
                <input
                  id={idFor(detail.name)}
                  name={detail.name}
                  type={detail.type}
                  required
                  autoComplete={detail.autoComplete}
                  value={draft[detail.name]}
                  onChange={(change) => set(detail.name, change.target.value)}
                  {...errorAttributes(detail.name)}
                />
              )}
              {errorText(detail.name)}
            </div>
          ))}

          <fieldset className="form__group" aria-describedby={fieldErrors.vatRegistered ? `${idFor('vatRegistered')}-error` : undefined}>
            <legend id={idFor('vatRegistered')} tabIndex={-1}>
              Is the company registered for VAT?
            </legend>
            {VAT_REGISTERED_CHOICES.map((choice) => (
              <div className="form__choice" key={choice.value}>
                <input
                  type="radio"
                  id={`register-vat-${choice.value}`}
                  name="vatRegistered"
                  value={choice.value}
                  checked={draft.vatRegistered === choice.value}
                  onChange={() => set('vatRegistered', choice.value)}
                />
                <label htmlFor={`register-vat-${choice.value}`}>{choice.label}</label>
              </div>
            ))}
            {errorText('vatRegistered')}
          </fieldset>

          {draft.vatRegistered !== 'no' && (
            <div className="form__field">
              <label htmlFor={idFor('vatNumber')}>VAT number{draft.vatRegistered === 'yes' ? ' (required)' : ''}</label>
              <input
                id={idFor('vatNumber')}
                name="vatNumber"
                inputMode="numeric"
                autoComplete="off"
                aria-describedby={[`${idFor('vatNumber')}-hint`, fieldErrors.vatNumber ? `${idFor('vatNumber')}-error` : ''].filter(Boolean).join(' ')}
                aria-invalid={fieldErrors.vatNumber ? true : undefined}
                value={draft.vatNumber}
                onChange={(change) => set('vatNumber', change.target.value)}
              />
              <p className="form__hint" id={`${idFor('vatNumber')}-hint`}>
                10 digits starting with 4, as on the company&apos;s SARS VAT registration. Leave empty if the company is not registered for VAT.
              </p>
              {errorText('vatNumber')}
            </div>
          )}

          <div className="form__field">
            <label htmlFor={idFor('purchaseOrderNumber')}>Purchase order number (optional)</label>
            <input
              id={idFor('purchaseOrderNumber')}
              name="purchaseOrderNumber"
              autoComplete="off"
              aria-describedby={`${idFor('purchaseOrderNumber')}-hint`}
              value={draft.purchaseOrderNumber}
              onChange={(change) => set('purchaseOrderNumber', change.target.value)}
              {...errorAttributes('purchaseOrderNumber')}
            />
            <p className="form__hint" id={`${idFor('purchaseOrderNumber')}-hint`}>
              Printed on the tax invoice as &ldquo;Your reference&rdquo;.
            </p>
            {errorText('purchaseOrderNumber')}
          </div>

          <div className="form__field">
            <label htmlFor={idFor('quotationNumber')}>Quotation number (optional)</label>
            <input
              id={idFor('quotationNumber')}
              name="quotationNumber"
              autoComplete="off"
              autoCapitalize="characters"
              aria-describedby={`${idFor('quotationNumber')}-hint`}
              value={draft.quotationNumber}
              onChange={(change) => set('quotationNumber', change.target.value)}
              {...errorAttributes('quotationNumber')}
            />
            <p className="form__hint" id={`${idFor('quotationNumber')}-hint`}>
              If we sent you a quotation for this event, its number, e.g. Q-000042.
            </p>
            {errorText('quotationNumber')}
          </div>

          <fieldset className="form__group">
            <legend id={idFor('delegates')} tabIndex={-1}>
              Delegates
            </legend>
            {draft.delegates.length === 0 && <p>No delegates listed. Add at least one before submitting.</p>}
            {draft.delegates.map((delegate, row) => (
              <fieldset className="form__delegate" key={row}>
                <legend>Delegate {row + 1}</legend>
                <div className={askAttendance ? 'form__delegate-fields form__delegate-fields--attends' : 'form__delegate-fields'}>
                  {delegateFields.map((field) => {
                    const name = `delegates.${row}.${field.name}`
                    return (
                      <div className="form__field" key={field.name}>
                        <label htmlFor={idFor(name)}>{field.label}</label>
                        <input
                          id={idFor(name)}
                          name={name}
                          type={field.type}
                          required
                          value={delegate[field.name]}
                          onChange={(change) => setDelegate(row, field.name, change.target.value)}
                          {...errorAttributes(name)}
                        />
                        {errorText(name)}
                      </div>
                    )
                  })}
                  {askAttendance && (
                    <div className="form__field">
                      <label htmlFor={idFor(`delegates.${row}.attendance`)}>Attends</label>
                      <select
                        id={idFor(`delegates.${row}.attendance`)}
                        name={`delegates.${row}.attendance`}
                        value={delegateAttendance(delegate, chosenKey)}
                        onChange={(change) => setDelegate(row, 'attendance', change.target.value)}
                        {...errorAttributes(`delegates.${row}.attendance`)}
                      >
                        <option value="venue">At the venue</option>
                        <option value="online">Online</option>
                      </select>
                      {errorText(`delegates.${row}.attendance`)}
                    </div>
                  )}
                  {event.cpdAccredited && (
                    <div className="form__field form__field--wide">
                      <label htmlFor={idFor(`delegates.${row}.professionalRegistrationNumber`)}>Professional registration number (optional)</label>
                      <input
                        id={idFor(`delegates.${row}.professionalRegistrationNumber`)}
                        name={`delegates.${row}.professionalRegistrationNumber`}
                        type="text"
                        maxLength={40}
                        autoComplete="off"
                        value={delegate.professionalRegistrationNumber ?? ''}
                        onChange={(change) => setDelegate(row, 'professionalRegistrationNumber', change.target.value)}
                        {...errorAttributes(`delegates.${row}.professionalRegistrationNumber`)}
                      />
                      {errorText(`delegates.${row}.professionalRegistrationNumber`)}
                    </div>
                  )}
                </div>
                <button
                  type="submit"
                  name="intent"
                  value={`remove-delegate:${row}`}
                  className="icon-button"
                  formAction={backToDelegates}
                  formNoValidate
                  onClick={(click) => {
                    click.preventDefault()
                    apply(removeDelegate(draft, row))
                  }}
                >
                  <RemoveIcon />
                  <span className="visually-hidden">Remove delegate {row + 1}</span>
                </button>
              </fieldset>
            ))}
            <div className="form__live" role="alert">
              {notice && <p className="form__error">{notice}</p>}
              {errorText('delegates')}
            </div>
            <button
              type="submit"
              name="intent"
              value="add-delegate"
              className="button button--secondary"
              formAction={backToDelegates}
              formNoValidate
              onClick={(click) => {
                click.preventDefault()
                apply(addDelegate(draft))
              }}
            >
              Add delegate
            </button>
          </fieldset>

          <div className="form__field registration-form__code">
            <label htmlFor={idFor('discountCode')}>Have a code? (optional)</label>
            <div className="registration-form__code-row">
              <input
                id={idFor('discountCode')}
                name="discountCode"
                autoComplete="off"
                autoCapitalize="characters"
                value={draft.discountCode}
                onChange={(change) => set('discountCode', change.target.value)}
                aria-describedby={[`${idFor('discountCode')}-status`, discountFieldError ? `${idFor('discountCode')}-error` : ''].filter(Boolean).join(' ')}
                aria-invalid={discountFieldError ? true : undefined}
              />
              <button
                type="submit"
                name="intent"
                value="apply-code"
                className="button button--secondary"
                formAction={`${action}#${idFor('discountCode')}`}
                formNoValidate
              >
                Apply
              </button>
            </div>
            <p className="form__hint" id={`${idFor('discountCode')}-status`} aria-live="polite">
              {discount
                ? discountMisses
                  ? `${discount.description} does not apply to the option chosen.`
                  : `${discount.description} applied.`
                : draft.discountCode.trim() !== '' && !discountFieldError
                  ? 'Press Apply to check the code and see the new total.'
                  : 'A discount code or a sponsor’s complimentary seat code.'}
            </p>
            {discountFieldError && (
              <p className="form__error" id={`${idFor('discountCode')}-error`}>
                {discountFieldError}
              </p>
            )}
          </div>

          <fieldset className="form__group" aria-describedby={fieldErrors.paymentMethod ? `${idFor('paymentMethod')}-error` : undefined}>
            <legend id={idFor('paymentMethod')} tabIndex={-1}>
              Payment method
            </legend>
            {Object.entries(PAYMENT_METHOD_LABELS).map(([value, label]) => (
              <div className="form__choice" key={value}>
                <input
                  type="radio"
                  id={`register-payment-${value === 'bank-transfer' ? 'bank' : 'card'}`}
                  name="paymentMethod"
                  value={value}
                  checked={draft.paymentMethod === value}
                  onChange={() => set('paymentMethod', value)}
                />
                <label htmlFor={`register-payment-${value === 'bank-transfer' ? 'bank' : 'card'}`}>{label}</label>
              </div>
            ))}
            {errorText('paymentMethod')}
          </fieldset>

          <button
            type="submit"
            name="intent"
            value="update"
            className="button button--secondary registration-form__update"
            formAction={backToPayment}
            formNoValidate
          >
            Update total
          </button>

          <div className="form__choice">
            <input
              type="checkbox"
              id={idFor('legalAgreement')}
              name="legalAgreement"
              checked={draft.legalAgreement}
              onChange={(change) => set('legalAgreement', change.target.checked)}
              {...errorAttributes('legalAgreement')}
            />
            <label htmlFor={idFor('legalAgreement')}>
              I have read and accept the <Link to="/terms">terms and conditions</Link>; this registration is legally binding.
            </label>
          </div>
          {errorText('legalAgreement')}

          <p className="form__notice">
            We collect the company&apos;s and the delegates&apos; names, positions and contact details only to handle this registration, invoice it and send
            joining details, and keep them no longer than needed for that. See our <Link to="/privacy">privacy notice</Link> for your rights.
          </p>
          {draft.paymentMethod !== '' && (
            <section className="registration-form__payment" aria-labelledby="register-total-title">
              <h3 id="register-total-title">Total</h3>
              <p className="registration-form__total" aria-live="polite">
                <strong>
                  <Amount cents={price.totalCents} />
                </strong>{' '}
                incl. {vatPercent} VAT
              </p>
              {!paysByCard ? (
                <div>
                  <p>Pay by bank transfer into this account. Quote your registration reference, which you receive when you submit, as the payment reference.</p>
                  {bankDetails && <BankDetailsList bank={bankDetails} />}
                </div>
              ) : (
                <div>
                  <p>
                    Please note: the form is submitted first. Pay submits your registration, then takes you to the secure card payment page (card, EFT or Google
                    Pay). If you submit without paying, your registration page offers the Pay button later.
                  </p>
                </div>
              )}
            </section>
          )}

          {/* One primary action, last, once the terms are read: Pay when paying by card (Submit Form stays as the quieter
              way to register now and pay later), Submit Form otherwise. */}
          <p className="registration-form__actions">
            {paysByCard && (
              <button type="submit" name="intent" value="pay" className="button button--accent" disabled={busy}>
                {busy ? (
                  'Submitting...'
                ) : (
                  <>
                    Pay <Amount cents={price.totalCents} />
                  </>
                )}
              </button>
            )}
            <button type="submit" name="intent" value="submit" className={paysByCard ? 'button button--secondary' : 'button'} disabled={busy}>
              {busy ? 'Submitting...' : 'Submit Form'}
            </button>
          </p>
        </div>
      </fetcher.Form>
      <QuoteForm event={event} options={options} draft={draft} refusal={quoteRefusal} />
    </>
  )
}

/**
 * "Download a quote": a plain form (no JavaScript needed) posting to the event's quote address, which answers with
 * the numbered quotation PDF, or sends the visitor back here with the reason (`refusal`). It starts from the
 * option, delegates and company already entered above; a quotation holds no seat.
 */
function QuoteForm({ event, options, draft, refusal }: { event: EventPage; options: OfferedOption[]; draft: RegistrationDraft; refusal: string | null }) {
  const available = options.filter((option) => option.available)
  return (
    <section className="registration-quote" aria-labelledby="register-quote">
      <h3 id="register-quote" tabIndex={-1}>
        Need a quote first?
      </h3>
      <p>Download a quotation for your purchase order. It is priced as the registration would be and holds no seat until you register.</p>
      {refusal && (
        <p className="form__error" role="alert">
          {refusal}
        </p>
      )}
      <form
        method="post"
        action={`/${event.kind}/${event.slug}/quote`}
        className="form"
        key={`${draft.attendanceOption}:${draft.delegates.length}:${draft.companyName}:${draft.discountCode}`}
      >
        <div className="form__field">
          <label htmlFor="quote-option">Attendance option</label>
          <select
            id="quote-option"
            name="attendanceOption"
            defaultValue={available.some((option) => option.key === draft.attendanceOption) ? draft.attendanceOption : ''}
            required
          >
            <option value="" disabled>
              Choose an option
            </option>
            {available.map((option) => (
              <option key={option.key} value={option.key}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor="quote-delegates">Number of delegates</label>
          <input
            id="quote-delegates"
            name="delegates"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUOTE_DELEGATES}
            defaultValue={Math.max(1, draft.delegates.length)}
            required
          />
        </div>
        {available.some((option) => option.key === 'online') && available.some((option) => option.key === 'venue' || option.key === 'early-bird') && (
          <div className="form__field">
            <label htmlFor="quote-online-delegates">Plus delegates attending online (optional)</label>
            <input id="quote-online-delegates" name="onlineDelegates" type="number" inputMode="numeric" min={0} max={MAX_QUOTE_DELEGATES} defaultValue={0} />
            <p className="form__hint">With a venue option: these join online, at the online price, on the same quotation.</p>
          </div>
        )}
        <div className="form__field">
          <label htmlFor="quote-company">Company name (optional)</label>
          <input id="quote-company" name="companyName" autoComplete="organization" defaultValue={draft.companyName} />
        </div>
        <div className="form__field">
          <label htmlFor="quote-address">Company address (optional)</label>
          <textarea id="quote-address" name="address" rows={2} autoComplete="street-address" defaultValue={draft.address} />
        </div>
        <div className="form__field">
          <label htmlFor="quote-discount-code">Discount code (optional)</label>
          <input id="quote-discount-code" name="discountCode" autoComplete="off" autoCapitalize="characters" defaultValue={draft.discountCode} />
        </div>
        <button type="submit" className="button button--secondary">
          Download a quote (PDF)
        </button>
      </form>
    </section>
  )
}

function RemoveIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </svg>
  )
}

/**
 * What the registration costs so far: beside the form on wide screens (sticky), above it on phones. It shows from
 * the start, before a payment method is chosen, and the server renders it after every no-JavaScript round trip.
 */
function OrderSummary({
  draft,
  options,
  price,
  vatPercent,
  discount,
}: {
  draft: RegistrationDraft
  options: OfferedOption[]
  price: ReturnType<typeof priceDraft>
  vatPercent: string
  discount: DiscountTerms | undefined
}) {
  const chosen = options.find((option) => option.key === draft.attendanceOption && option.available)
  const delegates = draft.delegates.length
  const isTable = chosen !== undefined && isOptionKey(chosen.key) && isTableOption(chosen.key)
  return (
    <aside className="order-summary" aria-labelledby="order-summary-title">
      <h3 id="order-summary-title">Order summary</h3>
      <dl className="order-summary__lines">
        <div>
          <dt>Option</dt>
          <dd>{chosen ? chosen.label : 'Not chosen yet'}</dd>
        </div>
        {price.lines.some((line) => line.option.key !== chosen?.key) ? (
          // A booking mixing venue and online: a line per way of attending, each at its own price.
          price.lines.map((line) => (
            <div key={line.attendance}>
              <dt>{line.attendance === 'online' ? 'Online' : 'At the venue'}</dt>
              <dd>
                {line.delegates} × <Amount cents={line.option.amountCents} />
              </dd>
            </div>
          ))
        ) : (
          <div>
            <dt>{isTable ? 'Table' : 'Delegates'}</dt>
            <dd>
              {chosen ? (
                isTable ? (
                  <>
                    {delegates} {delegates === 1 ? 'delegate' : 'delegates'}, <Amount cents={randsToCents(chosen.amount)} /> flat
                  </>
                ) : (
                  <>
                    {delegates} × <Amount cents={randsToCents(chosen.amount)} />
                  </>
                )
              ) : (
                delegates
              )}
            </dd>
          </div>
        )}
        {discount && price.discountCents > 0 && (
          <div className="order-summary__discount">
            <dt>{discount.description}</dt>
            <dd>
              <Amount cents={-price.discountCents} />
            </dd>
          </div>
        )}
        <div>
          <dt>Subtotal excl. VAT</dt>
          <dd>
            <Amount cents={price.subtotalCents} />
          </dd>
        </div>
        <div>
          <dt>VAT {vatPercent}</dt>
          <dd>
            <Amount cents={price.vatCents} />
          </dd>
        </div>
        <div className="order-summary__total">
          <dt>Total</dt>
          <dd>
            <Amount cents={price.totalCents} />
          </dd>
        </div>
      </dl>
    </aside>
  )
}
