// @vitest-environment jsdom
import { studioTheme, ThemeProvider } from '@sanity/ui'
import { act, cleanup, render, screen } from '@testing-library/react'
import type { NumberInputProps, PreviewProps } from 'sanity'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { priceOption } from '../schemaTypes/priceOption.ts'
import { AmountInput } from './AmountInput.tsx'
import { PriceOptionPreview } from './PriceOptionPreview.tsx'

type Listener = (rate: unknown) => void
const settings = vi.hoisted(() => ({ listeners: new Set<(rate: unknown) => void>(), queries: [] as unknown[][] }))

// The studio's document store, reduced to the live query the component makes; each test sets the rate.
vi.mock('sanity', () => ({
  defineType: <T,>(type: T) => type,
  defineField: <T,>(field: T) => field,
  // The amount's option key, next to it in the same price option.
  useFormValue: (path: unknown[]) => (path.join('/') === 'priceOptions/[object Object]/key' ? 'venue' : undefined),
  useDocumentStore: () => ({
    listenQuery: (...query: unknown[]) => {
      settings.queries.push(query)
      return {
        subscribe: (listener: Listener) => {
          settings.listeners.add(listener)
          return { unsubscribe: () => settings.listeners.delete(listener) }
        },
      }
    },
  }),
}))

function publishVatRate(rate: unknown) {
  act(() => settings.listeners.forEach((listener) => listener(rate)))
}

function renderAmount(amount: number) {
  const props = {
    value: amount,
    path: ['priceOptions', { _key: 'v' }, 'amount'],
    renderDefault: () => <input aria-label="Amount" readOnly value={amount} />,
  } as unknown as NumberInputProps
  render(
    <ThemeProvider theme={studioTheme}>
      <AmountInput {...props} />
    </ThemeProvider>,
  )
}

afterEach(() => {
  cleanup()
  settings.listeners.clear()
})

describe('AmountInput', () => {
  it('shows the price with the VAT rate of the site settings, following changes to it', () => {
    renderAmount(8490)
    expect(settings.queries.at(-1)?.slice(0, 2)).toEqual(['*[_id == $id][0].vatRate', { id: 'siteSettings' }])
    expect(screen.queryByText(/incl\. VAT/)).toBeNull()

    publishVatRate(16)
    expect(screen.getByText('R 8 490.00 excl. VAT · R 9 848.40 incl. VAT')).toBeTruthy()

    publishVatRate(15)
    expect(screen.getByText('R 8 490.00 excl. VAT · R 9 763.50 incl. VAT')).toBeTruthy()
  })

  it('shows no VAT-inclusive price while the settings hold no valid rate (a fraction where a percentage belongs)', () => {
    renderAmount(8490)
    publishVatRate(0.15)
    expect(screen.queryByText(/incl\. VAT/)).toBeNull()
  })
})

describe('the price option preview in lists', () => {
  function renderPreview(selected: { label: string; key: string; amount: number | undefined }) {
    const prepared = priceOption.preview!.prepare!(selected) as object
    const renderDefault = (props: PreviewProps) => (
      <p>
        {props.title as string}: {props.subtitle as React.ReactNode}
      </p>
    )
    render(<PriceOptionPreview {...(prepared as PreviewProps)} renderDefault={renderDefault} />)
  }

  it("prices the option at the site settings' VAT rate", () => {
    renderPreview({ label: 'Venue', key: 'venue', amount: 7990 })
    publishVatRate(16)
    expect(screen.getByText('Venue: R 7 990.00 excl. VAT · R 9 268.40 incl. VAT')).toBeTruthy()
  })

  it('says when there is no amount yet', () => {
    renderPreview({ label: 'Online', key: 'online', amount: undefined })
    expect(screen.getByText('Online: No amount yet')).toBeTruthy()
  })
})
