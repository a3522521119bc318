import { type RouteConfig, index, route } from '@react-router/dev/routes'

const contentPages = ['mission', 'vision', 'values', 'terms', 'sponsorship', 'privacy'] as const
const trainingPages = ['inhouse-training', 'online-training'] as const

export default [
  index('routes/home.tsx'),
  route('conference', 'routes/event-listing.tsx', { id: 'conference-listing' }),
  route('workshop', 'routes/event-listing.tsx', { id: 'workshop-listing' }),
  route('conference/:slug', 'routes/event-page.tsx', { id: 'conference-page' }),
  route('workshop/:slug', 'routes/event-page.tsx', { id: 'workshop-page' }),
  route('conference/:slug/contact', 'routes/contact-page.tsx', { id: 'conference-contact' }),
  route('workshop/:slug/contact', 'routes/contact-page.tsx', { id: 'workshop-contact' }),
  route('sponsorship/contact', 'routes/contact-page.tsx', { id: 'sponsorship-contact' }),
  ...contentPages.map((slug) => route(slug, 'routes/content-page.tsx', { id: `page-${slug}` })),
  ...trainingPages.map((slug) => route(slug, 'routes/training-page.tsx', { id: `training-${slug}` })),
  ...trainingPages.map((slug) => route(`${slug}/request`, 'routes/training-request.tsx', { id: `training-request-${slug}` })),
  route('registrations/:reference/:secret', 'routes/registration-status.tsx'),
  route('registrations/:reference/:secret/pay', 'routes/payment-pay.tsx'),
  route('registrations/:reference/:secret/payment/:outcome', 'routes/payment-return.tsx'),
  route('payments/sandbox/:checkoutId', 'routes/sandbox-checkout.tsx'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('admin', 'routes/admin/layout.tsx', { id: 'admin' }, [
    index('routes/admin/home.tsx'),
    route('sign-in', 'routes/admin/sign-in.tsx'),
    route('sign-out', 'routes/admin/sign-out.tsx'),
    route('forgot-password', 'routes/admin/forgot-password.tsx'),
    route('set-password', 'routes/admin/set-password.tsx'),
    route('two-factor', 'routes/admin/two-factor.tsx'),
    route('staff', 'routes/admin/staff.tsx'),
    route('audit', 'routes/admin/audit.tsx'),
    route('bank-statements', 'routes/admin/bank-statements.tsx'),
    route('enquiries', 'routes/admin/enquiries.tsx'),
    route('data-requests', 'routes/admin/data-requests.tsx'),
    route('data-requests/export', 'routes/admin/data-requests-export.ts'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
