import { VisualEditing } from '@sanity/visual-editing/react-router'
import { useEffect, useState } from 'react'
import { useLocation } from 'react-router'

declare global {
  interface Window {
    /** The page's CSP nonce, kept by the root's inline script (browsers hide it from the DOM). */
    __nonce__?: string
  }
}

// The overlays style themselves with styled-components, which looks for the nonce on a `csp-nonce` meta element.
// Setting the element's nonce property (not its attribute) keeps the value out of the DOM's attributes.
function shareNonceWithOverlays() {
  if (document.head.querySelector('meta[property="csp-nonce"]')) return
  const meta = document.createElement('meta')
  meta.setAttribute('property', 'csp-nonce')
  meta.nonce = window.__nonce__ ?? ''
  document.head.append(meta)
}

/**
 * What an editor in draft mode gets on every page: a bar saying drafts are shown, with the way back to the published
 * site, and the Studio's visual-editing overlays (they connect only inside the Presentation tool's frame).
 */
export default function PreviewTools() {
  const { pathname, search } = useLocation()
  const [overlaysReady, setOverlaysReady] = useState(false)
  useEffect(() => {
    shareNonceWithOverlays()
    setOverlaysReady(true)
  }, [])
  return (
    <>
      <aside className="preview-bar" aria-label="Preview">
        <p>Preview: unpublished changes are shown.</p>
        <a href={`/api/preview-mode/disable?${new URLSearchParams({ redirect: `${pathname}${search}` })}`}>Exit preview</a>
      </aside>
      {overlaysReady ? <VisualEditing /> : null}
    </>
  )
}
