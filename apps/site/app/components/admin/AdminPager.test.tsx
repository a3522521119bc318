import { render, screen } from '@testing-library/react'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { AdminPager } from './AdminPager'

function renderPager(pager: React.ReactElement) {
  const Stub = createRoutesStub([{ path: '/admin/audit', Component: () => pager }])
  render(<Stub initialEntries={['/admin/audit?page=2']} />)
}

describe('AdminPager', () => {
  it('links the previous and the next page', () => {
    renderPager(
      <AdminPager
        label="Audit log pages"
        previous={{ to: '/admin/audit?page=1', text: 'Newer entries' }}
        next={{ to: '/admin/audit?page=3', text: 'Older entries' }}
      />,
    )
    const nav = screen.getByRole('navigation', { name: 'Audit log pages' })
    expect(nav).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Newer entries' }).getAttribute('href')).toBe('/admin/audit?page=1')
    expect(screen.getByRole('link', { name: 'Newer entries' }).getAttribute('rel')).toBe('prev')
    expect(screen.getByRole('link', { name: 'Older entries' }).getAttribute('rel')).toBe('next')
  })

  it('leaves out the link past an end of the list', () => {
    renderPager(<AdminPager label="Audit log pages" next={{ to: '/admin/audit?page=2', text: 'Older entries' }} />)
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Older entries'])
  })
})
