import { Badge, Box, Button, Flex } from '@sanity/ui'
import type { NavbarProps } from 'sanity'

/** The site the studio edits; `SANITY_STUDIO_SITE_URL` at build time, the local site otherwise. */
export const SITE_URL = (process.env.SANITY_STUDIO_SITE_URL || 'http://localhost:3000').replace(/\/+$/, '')

/** The address of the site's back office (registrations, payments, staff accounts), where the events team works too. */
export function backOfficeUrl(siteUrl: string = SITE_URL): string {
  return `${siteUrl.replace(/\/+$/, '')}/admin`
}

/**
 * The dataset file the studio edits when it runs without a Sanity project, beside the site (`pnpm dev` sets
 * `SANITY_STUDIO_LOCAL_CONTENT`); unset with a project.
 */
export const LOCAL_CONTENT_FILE = process.env.SANITY_STUDIO_LOCAL_CONTENT || undefined

/**
 * The studio's own navigation bar with a link to the back office beside it, and the local label when local. The
 * label names the file only in its tooltip, and gives way on a phone, so the bar fits from 375 px up.
 */
export function BackOfficeNavbar(props: NavbarProps) {
  return (
    <Flex align="center" style={{ minWidth: 0 }}>
      <Box flex={1} style={{ minWidth: 0 }}>
        {props.renderDefault(props)}
      </Box>
      {LOCAL_CONTENT_FILE ? (
        <Box
          display={['none', 'none', 'block']}
          paddingX={2}
          title={`No Sanity project: what you publish is written to ${LOCAL_CONTENT_FILE}, which the local site reads`}
        >
          <Badge tone="caution" fontSize={1} padding={2}>
            Local content
          </Badge>
        </Box>
      ) : null}
      <Box paddingX={[1, 1, 2]} flex="none">
        <Button as="a" href={backOfficeUrl()} mode="ghost" fontSize={1} padding={2} text="Back office" />
      </Box>
    </Flex>
  )
}
