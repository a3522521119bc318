import { createContext } from 'react'

/** The site's stylesheet text, provided by the server entry so pages carry it inline; empty in the browser. */
export const InlineStylesContext = createContext('')
