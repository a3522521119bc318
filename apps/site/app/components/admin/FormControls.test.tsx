import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { FieldRow, Options, SubmitButton } from './FormControls'

describe('back-office form controls', () => {
  it('labels the control of a field row and offers the choices given', () => {
    render(
      <FieldRow id="invite-role" label="Role" className="admin-filters__search">
        <select id="invite-role" name="role" defaultValue="owner">
          <Options
            choices={[
              ['staff', 'Staff'],
              ['owner', 'Owner'],
            ]}
          />
        </select>
      </FieldRow>,
    )
    const select = screen.getByRole('combobox', { name: 'Role' })
    expect(select.closest('div')?.className).toBe('form__field admin-filters__search')
    expect(screen.getAllByRole('option').map((option) => [option.getAttribute('value'), option.textContent])).toEqual([
      ['staff', 'Staff'],
      ['owner', 'Owner'],
    ])
    expect((select as HTMLSelectElement).value).toBe('owner')
  })

  it('gives a lesser action the secondary look', () => {
    render(
      <>
        <SubmitButton>Send reply</SubmitButton>
        <SubmitButton secondary aria-label="Add an internal note">
          Add note
        </SubmitButton>
      </>,
    )
    const send = screen.getByRole('button', { name: 'Send reply' })
    expect([send.getAttribute('type'), send.className]).toEqual(['submit', 'button'])
    expect(screen.getByRole('button', { name: 'Add an internal note' }).className).toBe('button button--secondary')
  })
})
