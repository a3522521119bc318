import { Box, Button, Flex } from '@sanity/ui'
import type { NavbarProps } from 'sanity'

/** The site the studio edits; `SANITY_STUDIO_SITE_URL` at build time, the local site otherwise. */
export const SITE_URL = (process.env.SANITY_STUDIO_SITE_URL || 'http://localhost:3000').replace(/\/+$/, '')

/** The address of the site's back office (registrations, payments, staff accounts), where the events team works too. */
export function backOfficeUrl(siteUrl: string = SITE_URL): string {
  return `${siteUrl.replace(/\/+$/, '')}/admin`
}

/** The studio's own navigation bar with a link to the back office beside it. */
export function BackOfficeNavbar(props: NavbarProps) {
  return (
    <Flex align="center">
      <Box flex={1}>{props.renderDefault(props)}</Box>
      <Box paddingX={2}>
        <Button as="a" href={backOfficeUrl()} mode="ghost" text="Back office" />
      </Box>
    </Flex>
  )
}
