// A scan at the door answered by the server with 500 delegates on the event, on SQLite: POST of a pass code to the
// check-in desk's JSON route (…/check-in/live), signed in, against the built site. The server time is the site's own
// `responseTime` from its request log (matched by the X-Request-Id the bench sent): the guard, the staff command (the
// pass looked up, the check-in and its audit row written in one transaction, the day's counts read back) and the
// answer; the time the bench saw on loopback is printed beside it. Also timed: the same pass scanned again (refused,
// saying who was first) and the desk's search page. Registrations are made through the registration service itself.
// Then the on-screen time: four Chromium phones at 390 px on the desk at once, each scanning in turn; from the Enter
// key (a listener on the page) to the frame after the answer naming the delegate appears; and the size of the desk's
// first load (its HTML).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createStaffAccount, signInCookie } from '../../tests/support/admin.ts'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { chromiumFlags, chromiumPath } from '../../tests/support/chromium.ts'
import { startSite } from '../../tests/support/site-server.ts'
import { percentile } from './registrations.mjs'
import { printTable } from './table.mjs'
import { serverTimes } from './server-log.mjs'

export const title = 'Check-in scan with 500 delegates on the event (SQLite, POST …/check-in/live signed in)'

const REGISTRATIONS = 250
const DELEGATES_EACH = 2
const WARM_UP_SCANS = 10
const SCANS = 200
const REPEATS = 50
const SEARCHES = 50
const TARGET_MS = 300
const PHONES = 4
const SCANS_PER_PHONE = 40
const DESK = '/admin/events/event-legal-opinion/check-in'
const DAY = '2025-07-03'
const STAFF = /** @type {const} */ ({ email: 'bench-door@example.com', name: 'Bench Door', role: 'staff', password: 'the bench desk at the door 2025' })

/** Fills DATA_DIR's SQLite database with 500 delegates of Legal Opinion Writing; answers their pass codes. */
async function seed(dataDir) {
  const { createRegistration, openDatabase } = await import('../../packages/core/src/index.ts')
  const { SITE_NOW, fixedCatalog, testSiteLinks } = await import('../../packages/core/src/test-support.ts')
  const db = await openDatabase({ dataDir })
  try {
    const context = { db, catalog: fixedCatalog(), links: testSiteLinks('http://127.0.0.1'), siteNow: () => SITE_NOW }
    for (let index = 0; index < REGISTRATIONS; index++) {
      await createRegistration(context, {
        event: 'legalOpinion',
        code: 'LOW2025',
        companyName: `Door Bench ${index}`,
        address: '1 Main Road, Sandton',
        email: `bookings-${index}@door.test`,
        tel: '+27 11 555 0100',
        vatNumber: '4123456789',
        delegates: Array.from({ length: DELEGATES_EACH }, (_, delegate) => ({
          name: `Delegate ${index}-${delegate}`,
          position: 'Director',
          email: `d${delegate}-${index}@door.test`,
        })),
        attendanceOption: 'venue',
        paymentMethod: 'Bank Transfer',
        legalAgreement: true,
      })
    }
    // The seeded registrations' e-mails are not what is measured: marked sent, the site's outbox stays idle.
    await db.kysely.updateTable('outbox_messages').set({ status: 'sent', sent_at: new Date().toISOString() }).execute()
    return (await db.kysely.selectFrom('delegate_passes').select('code').execute()).map((row) => row.code)
  } finally {
    await db.close()
  }
}

export async function run() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'events-bench-check-in-'))
  try {
    const codes = await seed(dataDir)
    console.log(`seeded ${codes.length} delegates in ${REGISTRATIONS} registrations\n`)
    await createStaffAccount(dataDir, STAFF)
    // The morning of the first day: the door records only the day the business clock says it is.
    const site = await startSite({ env: { DATA_DIR: dataDir, SITE_DATE: `${DAY}T07:30:00+02:00` }, keepOutput: true })
    try {
      const cookie = await signInCookie(site.baseUrl, STAFF)
      const headers = (id) => ({ cookie, origin: site.baseUrl, 'x-request-id': id, accept: 'application/json' })
      const scan = async (id, code, expected) => {
        const started = performance.now()
        const response = await fetch(`${site.baseUrl}${DESK}/live`, { method: 'POST', headers: headers(id), body: new URLSearchParams({ day: DAY, code }) })
        await response.text()
        if (response.status !== expected) throw new Error(`A scan of ${code} answered ${response.status}, not ${expected}`)
        return performance.now() - started
      }
      /** @type {Array<{ id: string, clientMs: number }>} */
      const scans = []
      /** @type {Array<{ id: string, clientMs: number }>} */
      const repeats = []
      /** @type {Array<{ id: string, clientMs: number }>} */
      const searches = []
      const cases = { 'scan, checked in': scans, 'same pass again, refused': repeats, 'search by name (desk page)': searches }
      for (let index = 0; index < WARM_UP_SCANS + SCANS; index++) {
        const id = `bench-check-in-${index}`
        const clientMs = await scan(id, codes[index], 200)
        if (index >= WARM_UP_SCANS) scans.push({ id, clientMs })
      }
      for (let index = 0; index < REPEATS; index++) {
        const id = `bench-check-in-again-${index}`
        repeats.push({ id, clientMs: await scan(id, codes[WARM_UP_SCANS + index], 409) })
      }
      for (let index = 0; index < SEARCHES; index++) {
        const id = `bench-check-in-search-${index}`
        const started = performance.now()
        const response = await fetch(`${site.baseUrl}${DESK}?${new URLSearchParams({ day: DAY, q: `delegate ${index * 3}-1` })}`, { headers: headers(id) })
        await response.text()
        if (response.status !== 200) throw new Error(`The desk's search answered ${response.status}`)
        searches.push({ id, clientMs: performance.now() - started })
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
      const times = serverTimes(site.output())
      const rows = Object.entries(cases).map(([name, requests]) => {
        const server = requests.map((request) => times.get(request.id)).sort((a, b) => a - b)
        if (server.some((time) => time === undefined)) throw new Error(`The site's log lacks request lines of "${name}"`)
        const client = requests.map((request) => request.clientMs).sort((a, b) => a - b)
        const p95 = percentile(server, 0.95)
        return [
          name,
          String(requests.length),
          `${percentile(server, 0.5).toFixed(1)} ms`,
          `${p95.toFixed(1)} ms`,
          `${percentile(client, 0.95).toFixed(1)} ms`,
          `<= ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'not met'}`,
        ]
      })
      printTable(['request', 'requests', 'server p50', 'server p95', 'HTTP p95', 'target (server p95)'], rows)

      const firstLoad = await fetch(`${site.baseUrl}${DESK}?day=${DAY}`, { headers: { cookie } })
      const firstLoadBytes = Buffer.byteLength(await firstLoad.text())
      const onScreen = await onScreenTimes(site.baseUrl, cookie, codes.slice(WARM_UP_SCANS + SCANS + 50))
      const p95 = percentile(onScreen, 0.95)
      console.log('')
      printTable(
        ['on screen (Enter to answer visible)', 'scans', 'p50', 'p95', 'target (p95)'],
        [
          [
            `${PHONES} phones at 390 px at once`,
            String(onScreen.length),
            `${percentile(onScreen, 0.5).toFixed(1)} ms`,
            `${p95.toFixed(1)} ms`,
            `<= ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'not met'}`,
          ],
        ],
      )
      console.log(`\nFirst load of the desk (500 delegates, one page of the list): ${(firstLoadBytes / 1024).toFixed(1)} KB of HTML`)
    } finally {
      await site.stop()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Four phones on the desk at once, each scanning its own codes in turn: the milliseconds from the Enter key to the
 * frame after the green answer naming the delegate appeared, sorted.
 */
async function onScreenTimes(baseUrl, cookie, codes) {
  // Playwright is the browser tests' dependency: loaded from there, as they launch it.
  const playwright = createRequire(new URL('../../tests/package.json', import.meta.url)).resolve('playwright-core')
  const { chromium } = (await import(pathToFileURL(playwright).href)).default
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags })
  try {
    const cookies = cookie.split(';').map((pair) => {
      const [name, ...rest] = pair.trim().split('=')
      return { name, value: rest.join('='), url: baseUrl }
    })
    const phones = await Promise.all(
      Array.from({ length: PHONES }, async () => {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
        await context.addCookies(cookies)
        const page = await context.newPage()
        await page.goto(`${baseUrl}${DESK}?day=${DAY}`)
        // Hydrated once the desk's first poll and list have been fetched and the network is quiet.
        await page.waitForLoadState('networkidle')
        return page
      }),
    )
    const times = await Promise.all(
      phones.map(async (page, phone) => {
        const mine = codes.slice(phone * SCANS_PER_PHONE, (phone + 1) * SCANS_PER_PHONE)
        const taken = []
        for (const code of mine) {
          await page.getByLabel('Pass code').fill(code)
          await page.evaluate(() => {
            const before = document.querySelector('.check-in-answer > strong')?.textContent ?? ''
            Object.assign(window, {
              benchAnswer: new Promise((resolve) => {
                let pressedAt = 0
                window.addEventListener('keydown', (event) => event.key === 'Enter' && (pressedAt = performance.now()), { capture: true, once: true })
                const observer = new MutationObserver(() => {
                  const shown = document.querySelector('.check-in-answer > strong')?.textContent ?? ''
                  if (pressedAt === 0 || shown === before || !shown.endsWith('checked in.')) return
                  observer.disconnect()
                  requestAnimationFrame(() => resolve(performance.now() - pressedAt))
                })
                observer.observe(document.body, { childList: true, subtree: true, characterData: true })
              }),
            })
          })
          await page.keyboard.press('Enter')
          const answered = page.evaluate(() => /** @type {{ benchAnswer: Promise<number> }} */ (/** @type {unknown} */ (window)).benchAnswer)
          taken.push(await answered)
        }
        return taken
      }),
    )
    return times.flat().sort((a, b) => a - b)
  } finally {
    await browser.close()
  }
}
