import type { Page } from 'playwright-core'

/**
 * From a hydrated page of the site, follows the footer's Privacy link while its data request fails with 500: the
 * site's error boundary then shows the "Something went wrong" page, as it does for any fault of ours in a loader.
 */
export async function showServerErrorPage(page: Page): Promise<void> {
  await page.route('**/privacy.data*', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }))
  try {
    await page.locator('footer a[href="/privacy"]').click()
    await page.locator('h1', { hasText: 'Something went wrong' }).waitFor()
  } finally {
    await page.unroute('**/privacy.data*')
  }
}
