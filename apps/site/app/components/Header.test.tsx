import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRoutesStub, Outlet } from 'react-router'
import { describe, expect, it } from 'vitest'
import { contentQueryKey } from '../lib/content'
import { siteSettingsRequest } from '../lib/site-settings'
import { Header } from './Header'

function renderHeader() {
  const queryClient = new QueryClient()
  queryClient.setQueryData(contentQueryKey(siteSettingsRequest), { siteName: 'Summit Business Events' })
  const Layout = () => (
    <QueryClientProvider client={queryClient}>
      <Header />
      <p>Page body</p>
      <Outlet />
    </QueryClientProvider>
  )
  const Stub = createRoutesStub([
    {
      path: '/',
      Component: Layout,
      children: [
        { index: true, Component: () => <h1>Home</h1> },
        { path: 'conference', Component: () => <h1>Conferences page</h1> },
      ],
    },
  ])
  render(<Stub initialEntries={['/']} />)
  return { user: userEvent.setup() }
}

const menuButton = () => screen.getByRole('button', { name: /menu/i })
const eventsButton = () => screen.getByRole('button', { name: /events/i })

describe('Header navigation state', () => {
  it('lists the navigation items of the specification', () => {
    renderHeader()
    const nav = screen.getByRole('navigation', { name: 'Main' })
    for (const name of ['Home', 'About Us', 'Divisions', 'Contact Us']) expect(within(nav).getByRole('link', { name })).toBeInTheDocument()
    for (const name of ['Conferences', 'Workshops', 'In-House Training', 'Online Training']) {
      expect(within(nav).getByRole('link', { name, hidden: true })).toHaveAttribute('href')
    }
    expect(within(nav).getByRole('link', { name: 'About Us' })).toHaveAttribute('href', '/#about')
  })

  it('opens and closes the small-screen menu with its button', async () => {
    const { user } = renderHeader()
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
    await user.click(menuButton())
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true')
    await user.click(menuButton())
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes the Events menu on Escape and returns focus to its button', async () => {
    const { user } = renderHeader()
    await user.click(eventsButton())
    expect(eventsButton()).toHaveAttribute('aria-expanded', 'true')
    await user.keyboard('{Escape}')
    expect(eventsButton()).toHaveAttribute('aria-expanded', 'false')
    expect(eventsButton()).toHaveFocus()
  })

  it('closes both menus on a click outside the header', async () => {
    const { user } = renderHeader()
    await user.click(menuButton())
    await user.click(eventsButton())
    await user.click(screen.getByText('Page body'))
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
    expect(eventsButton()).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes the Events menu when the small-screen menu opens', async () => {
    const { user } = renderHeader()
    await user.click(eventsButton())
    await user.click(menuButton())
    expect(menuButton()).toHaveAttribute('aria-expanded', 'true')
    expect(eventsButton()).toHaveAttribute('aria-expanded', 'false')
  })

  it('closes the menus after a link is chosen', async () => {
    const { user } = renderHeader()
    await user.click(menuButton())
    await user.click(eventsButton())
    await user.click(screen.getByRole('link', { name: 'Conferences' }))
    expect(await screen.findByRole('heading', { name: 'Conferences page' })).toBeInTheDocument()
    expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
    expect(eventsButton()).toHaveAttribute('aria-expanded', 'false')
  })
})
