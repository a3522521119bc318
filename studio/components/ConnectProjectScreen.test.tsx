// @vitest-environment jsdom
import { studioTheme, ThemeProvider } from '@sanity/ui'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConnectProjectScreen } from './ConnectProjectScreen.tsx'

afterEach(() => {
  cleanup()
  vi.unstubAllEnvs()
  vi.resetModules()
})

async function loadConfig(projectId: string) {
  vi.stubEnv('SANITY_STUDIO_PROJECT_ID', projectId)
  vi.resetModules()
  const { default: config } = await import('../sanity.config.ts')
  if (Array.isArray(config)) throw new Error('one workspace expected')
  return config
}

describe('the studio without a Sanity project', () => {
  it('says which variables connect one, where to create it and what works offline', () => {
    render(
      <ThemeProvider theme={studioTheme}>
        <ConnectProjectScreen />
      </ThemeProvider>,
    )
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Connect a Sanity project to edit content')
    const text = document.body.textContent ?? ''
    expect(text).toContain('SANITY_STUDIO_PROJECT_ID=<your project id>')
    expect(text).toContain('SANITY_STUDIO_DATASET=production')
    expect(text).toContain('studio/.env.local')
    expect(screen.getByRole('link', { name: 'sanity.io/manage' }).getAttribute('href')).toBe('https://www.sanity.io/manage')
    expect(text).toContain('The site runs offline on the dataset shipped in packages/content/dataset')
    expect(screen.getByRole('link', { name: 'http://localhost:3000/admin' })).toBeTruthy()
  })

  it('is the whole studio, with its own sign-in, when SANITY_STUDIO_PROJECT_ID is not set', async () => {
    const config = await loadConfig('')
    expect(config.projectId).toBe('localonly')
    expect(config.studio?.components?.layout?.name).toBe('ConnectProjectScreen')
    expect(config.auth).toHaveProperty('state')
  })

  it('is not shown with a project: the studio signs in to Sanity and edits it', async () => {
    const config = await loadConfig('abc123')
    expect(config.projectId).toBe('abc123')
    expect(config.studio?.components?.layout).toBeUndefined()
    expect(config.auth).toBeUndefined()
  })
})
