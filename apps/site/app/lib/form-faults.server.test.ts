import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { submitContactForm } from './contact.server'
import { REGISTRATION_SEND_FAILURE, SERVER_FAULT, SERVER_FAULT_MESSAGE } from './form-outcome'
import { registrationAction } from './registration.server'
import { servicesContext, type SiteServices } from './services.server'

// A core whose storage fails the way an unreachable database does: every submission throws a plain Error.
function contextWithFailingStorage(): RouterContextProvider {
  const fault = async () => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:5432')
  }
  const core = {
    formRateLimiter: { check: () => ({ allowed: true }) },
    enquiries: { submitContactEnquiry: fault, submitTrainingRequest: fault },
    registrations: { createRegistration: fault },
  }
  const context = new RouterContextProvider()
  context.set(servicesContext, { core } as unknown as SiteServices)
  return context
}

function post(fields: Record<string, string>): Request {
  return new Request('http://localhost/', { method: 'POST', body: new URLSearchParams(fields) })
}

/** What `data(value, init)` returned from an action carries. */
function answered(result: unknown): { status: number | undefined; body: Record<string, unknown> } {
  const { data, init } = result as { data: Record<string, unknown>; init: ResponseInit | null }
  return { status: init?.status, body: data }
}

describe('form actions when the server fails', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers the contact form 503 with the reason and what the visitor typed, and logs the fault', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const typed = { fullName: 'Naledi Dlamini', companyName: '', email: 'naledi@client.test', phone: '082 555 0101', interest: 'Sponsorship', message: 'Packages, please.' }

    const { status, body } = answered(await submitContactForm(post(typed), contextWithFailingStorage()))

    expect(status).toBe(503)
    expect(body).toEqual({ status: 'error', code: SERVER_FAULT, message: SERVER_FAULT_MESSAGE, fields: {}, values: typed })
    expect(String(log.mock.calls[0]?.[1])).toContain('ECONNREFUSED')
  })

  it('answers a registration 503 with the form as sent and the send-failure message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const form = {
      code: 'ERC2025',
      companyName: 'Acme',
      'delegates.0.name': 'Thandi Mokoena',
      'delegates.0.position': 'Director',
      'delegates.0.email': 'thandi@acme.test',
      intent: 'submit',
    }

    const { status, body } = answered(await registrationAction(post(form), contextWithFailingStorage(), 'Resilience'))

    expect(status).toBe(503)
    expect(body.error).toEqual({ code: SERVER_FAULT, message: REGISTRATION_SEND_FAILURE, fields: {} })
    expect(body.draft).toMatchObject({ companyName: 'Acme', delegates: [{ name: 'Thandi Mokoena', position: 'Director', email: 'thandi@acme.test' }] })
  })
})
