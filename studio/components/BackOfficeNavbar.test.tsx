// @vitest-environment jsdom
import { studioTheme, ThemeProvider } from '@sanity/ui'
import { cleanup, render, screen } from '@testing-library/react'
import type { NavbarProps } from 'sanity'
import { afterEach, describe, expect, it } from 'vitest'
import { BackOfficeNavbar, backOfficeUrl } from './BackOfficeNavbar.tsx'

afterEach(cleanup)

describe('the back-office link in the studio', () => {
  it('points at /admin of the site the studio edits', () => {
    expect(backOfficeUrl('https://events.example.co.za/')).toBe('https://events.example.co.za/admin')
    expect(backOfficeUrl()).toBe('http://localhost:3000/admin')
  })

  it('is the studio’s navigation bar', async () => {
    const { default: config } = await import('../sanity.config.ts')
    expect(!Array.isArray(config) && config.studio?.components?.navbar).toBe(BackOfficeNavbar)
  })

  it('sits beside the studio’s own navigation bar', () => {
    const props = { renderDefault: () => <nav aria-label="Studio">studio tools</nav> } as unknown as NavbarProps
    render(
      <ThemeProvider theme={studioTheme}>
        <BackOfficeNavbar {...props} />
      </ThemeProvider>,
    )
    expect(screen.getByRole('navigation', { name: 'Studio' }).textContent).toBe('studio tools')
    expect(screen.getByRole('link', { name: 'Back office' }).getAttribute('href')).toBe('http://localhost:3000/admin')
  })
})
