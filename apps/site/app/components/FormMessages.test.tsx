import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ErrorSummary } from './FormMessages'

describe('ErrorSummary', () => {
  it('links each field’s message, naming the field once', () => {
    render(
      <ErrorSummary
        title="Please fill in all required fields before submitting."
        fields={[
          { name: 'phone', id: 'contact-phone', label: 'Phone' },
          { name: 'email', id: 'contact-email', label: 'Email' },
          { name: 'delegates.0.name', id: 'register-delegates-0-name', label: 'Delegate 1 name' },
          { name: 'message', id: 'contact-message', label: 'Message' },
        ]}
        messages={{ phone: 'Phone is required', email: 'Please enter a valid e-mail address.', 'delegates.0.name': 'Name is required' }}
      />,
    )
    expect(screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Phone is required', '#contact-phone'],
      ['Email: Please enter a valid e-mail address.', '#contact-email'],
      ['Delegate 1 name: Name is required', '#register-delegates-0-name'],
    ])
  })
})
