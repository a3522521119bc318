import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { PAYMENT_EXCEPTION_MESSAGE, PayButton } from './PayButton'

const paymentPath = '/registrations/ABCD2345/secret/pay'
const server = setupServer()
let requests: Request[] = []

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => {
  server.resetHandlers()
  requests = []
})
afterAll(() => server.close())

function answer(respond: () => Response) {
  server.use(
    http.post(`${window.location.origin}${paymentPath}`, ({ request }) => {
      requests.push(request.clone())
      return respond()
    }),
  )
}

async function clickPay() {
  render(<PayButton paymentPath={paymentPath} totalCents={976350} />)
  await userEvent.setup().click(screen.getByRole('button', { name: 'Pay R 9 763.50' }))
}

describe('PayButton', () => {
  it('is a plain form post to the payment URL before JavaScript takes over', () => {
    const { container } = render(<PayButton paymentPath={paymentPath} totalCents={976350} />)
    const form = container.querySelector('form')
    expect(form?.getAttribute('method')).toBe('post')
    expect(form?.getAttribute('action')).toBe(paymentPath)
    expect(container.querySelectorAll('input')).toHaveLength(0)
  })

  it('asks for JSON without sending an amount and goes to the redirect URL', async () => {
    const assign = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
    answer(() => HttpResponse.json({ success: true, redirectUrl: 'https://c.yoco.com/checkout/ch_1', message: 'Redirecting' }))
    await clickPay()
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://c.yoco.com/checkout/ch_1'))
    expect(requests[0]?.headers.get('accept')).toBe('application/json')
    expect(await requests[0]?.text()).toBe('')
  })

  it("shows 'Failed to generate redirect URL: {message}' when the server could not make a checkout", async () => {
    answer(() => HttpResponse.json({ success: false, message: 'The payment provider answered 403: Forbidden' }, { status: 502 }))
    await clickPay()
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to generate redirect URL: The payment provider answered 403: Forbidden')
    expect(screen.getByRole('button', { name: 'Pay R 9 763.50' })).toBeEnabled()
  })

  it('shows the general failure when the request itself fails', async () => {
    answer(() => HttpResponse.error())
    await clickPay()
    expect(await screen.findByRole('alert')).toHaveTextContent(PAYMENT_EXCEPTION_MESSAGE)
  })
})
