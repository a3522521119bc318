import { lazy, Suspense, type ComponentProps } from 'react'

const ContactForm = lazy(() => import('./ContactForm').then((module) => ({ default: module.ContactForm })))

/**
 * The contact form with its code loaded after the page's own: the server-rendered form is a plain HTML form
 * that posts to the page's action until then, so nothing waits on it.
 */
export function LazyContactForm(props: ComponentProps<typeof import('./ContactForm').ContactForm>) {
  return (
    <Suspense>
      <ContactForm {...props} />
    </Suspense>
  )
}
