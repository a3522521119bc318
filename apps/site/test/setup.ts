import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { installViewport } from './viewport.ts'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  installViewport({ width: 1024 })
})

// jsdom implements neither layout nor media queries: every test starts on a desktop-wide viewport
// with motion allowed, and a no-op scrollIntoView that tests can spy on.
installViewport({ width: 1024 })
Element.prototype.scrollIntoView = () => {}
