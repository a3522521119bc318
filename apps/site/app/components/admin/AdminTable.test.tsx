import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AdminTable } from './AdminTable'

describe('AdminTable', () => {
  it('heads its columns, figures aligned right and a heading for screen readers only kept out of sight', () => {
    render(
      <AdminTable caption="Bank transfers" columns={['Received on', { label: 'Amount', numeric: true }, { label: 'Change', hidden: true }]}>
        <tr>
          <td>2026-11-24</td>
          <td>R 100.00</td>
          <td>Change</td>
        </tr>
      </AdminTable>,
    )
    const table = screen.getByRole('table', { name: 'Bank transfers' })
    expect(table.querySelector('caption')?.className).toBe('visually-hidden')
    const headings = within(table).getAllByRole('columnheader')
    expect(headings.map((heading) => heading.textContent)).toEqual(['Received on', 'Amount', 'Change'])
    expect(headings.map((heading) => heading.className)).toEqual(['', 'admin-number', ''])
    expect(headings[2]?.querySelector('.visually-hidden')?.textContent).toBe('Change')
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    expect(screen.queryByRole('region')).toBeNull()
  })

  it('scrolls a wide table in a region that keyboards can reach, named by its label or by a heading', () => {
    render(
      <>
        <h2 id="lines-heading">Statement lines</h2>
        <AdminTable caption="Lines" captionShown scrollLabelledBy="lines-heading" columns={['Date']}>
          <tr>
            <td>2026-11-24</td>
          </tr>
        </AdminTable>
        <AdminTable caption="Checkouts" scrollLabel="Card checkouts" columns={['Attempt']}>
          <tr>
            <td>1</td>
          </tr>
        </AdminTable>
      </>,
    )
    const byHeading = screen.getByRole('region', { name: 'Statement lines' })
    expect(byHeading.tabIndex).toBe(0)
    expect(within(byHeading).getByRole('table').querySelector('caption')?.hasAttribute('class')).toBe(false)
    expect(within(screen.getByRole('region', { name: 'Card checkouts' })).getByRole('table', { name: 'Checkouts' })).toBeTruthy()
  })
})
