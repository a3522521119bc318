import type { AuthState } from 'sanity'
import { describe, expect, it } from 'vitest'
import { PLACEHOLDER_PROJECT_ID, sanityProjectSettings } from './sanityProject.ts'
import { unconnectedAuthStore } from './unconnectedAuth.ts'

describe('the Sanity project the studio edits', () => {
  it('is the one SANITY_STUDIO_PROJECT_ID names, in SANITY_STUDIO_DATASET', () => {
    expect(sanityProjectSettings({ SANITY_STUDIO_PROJECT_ID: 'abc123', SANITY_STUDIO_DATASET: 'staging' })).toEqual({
      projectId: 'abc123',
      dataset: 'staging',
      configured: true,
    })
  })

  it('is not configured without a project id, blank or the placeholder', () => {
    for (const projectId of [undefined, '', '  ', PLACEHOLDER_PROJECT_ID]) {
      expect(sanityProjectSettings({ SANITY_STUDIO_PROJECT_ID: projectId })).toEqual({
        projectId: PLACEHOLDER_PROJECT_ID,
        dataset: 'production',
        configured: false,
      })
    }
  })
})

describe('the sign-in of a studio without a project', () => {
  it('lets the studio through to its layout at once, with a user who has a role', async () => {
    const store = unconnectedAuthStore(sanityProjectSettings({}))
    const state = await new Promise<AuthState>((resolve, reject) => {
      const subscription = store.state.subscribe({ next: resolve, error: reject })
      subscription.unsubscribe()
    })
    expect(state.authenticated).toBe(true)
    expect(state.currentUser?.roles.length).toBeGreaterThan(0)
    expect(state.client.config()).toMatchObject({ projectId: PLACEHOLDER_PROJECT_ID, dataset: 'production' })
  })
})
