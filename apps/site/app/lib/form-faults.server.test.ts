import { createLogger } from '@events/observability'
import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { submitContactForm } from './contact.server'
import { REGISTRATION_SEND_FAILURE, SERVER_FAULT, SERVER_FAULT_MESSAGE } from './form-outcome'
import { registrationAction } from './registration.server'
import { requestFactsContext, servicesContext, type SiteServices } from './services.server'

const logged: string[] = []
const log = createLogger({ destination: { write: (line: string) => void logged.push(line) } })

// A core whose storage fails the way an unreachable database does: every submission throws a plain Error.
function contextWithFailingStorage(): RouterContextProvider {
  const fault = async () => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:5432')
  }
  const core = {
    formRateLimiter: { check: async () => ({ allowed: true }) },
    enquiries: { submitContactEnquiry: fault, submitTrainingRequest: fault },
    // The registration context's catalog and database are both unreachable, so the first one asked fails.
    registrations: { catalog: { getEvent: fault, getSettings: fault }, db: { writeTransaction: fault } },
  }
  const context = new RouterContextProvider()
  context.set(servicesContext, { core } as unknown as SiteServices)
  context.set(requestFactsContext, { clientIp: '198.51.100.7', log, cspNonce: '', preview: false, dataRequest: false })
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
  it('answers the contact form 503 with the reason and what the visitor typed, and logs the fault', async () => {
    logged.length = 0
    const typed = {
      fullName: 'Naledi Dlamini',
      companyName: '',
      email: 'naledi@client.test',
      phone: '082 555 0101',
      interest: 'Sponsorship',
      message: 'Packages, please.',
    }

    const { status, body } = answered(await submitContactForm(post(typed), contextWithFailingStorage()))

    expect(status).toBe(503)
    expect(body).toEqual({ status: 'error', code: SERVER_FAULT, message: SERVER_FAULT_MESSAGE, fields: {}, values: typed })
    expect(logged).toHaveLength(1)
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({
      level: 50,
      msg: 'Form submission to / failed',
      err: { message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    })
  })

  it('answers a registration 503 with the form as sent and the send-failure message', async () => {
    logged.length = 0
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
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({
      level: 50,
      msg: 'Registration for Resilience failed',
      err: { message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    })
    expect(body.draft).toMatchObject({ companyName: 'Acme', delegates: [{ name: 'Thandi Mokoena', position: 'Director', email: 'thandi@acme.test' }] })
  })
})
