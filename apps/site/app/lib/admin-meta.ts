import type { MetaDescriptor } from 'react-router'

/** A back-office page's title; search engines are told to leave every back-office page out. */
export function adminMeta(title: string): MetaDescriptor[] {
  return [{ title: `${title} | Back office` }, { name: 'robots', content: 'noindex, nofollow' }]
}
