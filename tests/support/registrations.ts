// A valid registration for POST /api/registrations, with addresses no other registration shares; `overrides`
// replace whole fields (an option, a payment method, the delegates).
export function registrationBody(overrides: Record<string, unknown> = {}) {
  const unique = Math.random().toString(36).slice(2, 8)
  return {
    event: 'legalOpinion',
    code: 'LOW2025',
    companyName: `Acme Legal ${unique}`,
    address: '1 Main Road, Sandton',
    email: `bookings-${unique}@acme.test`,
    tel: '+27 11 555 0100',
    vatNumber: '4123456789',
    delegates: [
      { name: 'Thandi Mokoena', position: 'Attorney', email: `thandi-${unique}@acme.test` },
      { name: 'Pieter Botha', position: 'Paralegal', email: `pieter-${unique}@acme.test` },
    ],
    attendanceOption: 'venue',
    paymentMethod: 'Bank Transfer',
    legalAgreement: true,
    ...overrides,
  }
}

export interface RegistrationReceipt {
  reference: string
  status: string
  statusUrl: string
  paymentUrl?: string
}

/** A receipt's status-page address on the site under test (receipts name the configured SITE_URL). */
export function onSite(statusUrl: string, baseUrl: string): string {
  return statusUrl.replace(/^https?:\/\/[^/]+/, baseUrl)
}

/** Registers by bank transfer through POST /api/registrations and answers the status page's address on that site. */
export async function registerForStatusPage(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/registrations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationBody({ paymentMethod: 'Bank Transfer' })),
  })
  const receipt = (await response.json()) as RegistrationReceipt
  return onSite(receipt.statusUrl, baseUrl)
}
