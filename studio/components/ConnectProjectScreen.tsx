import { Card, Code, Container, Heading, Stack, Text } from '@sanity/ui'
import { SITE_URL } from './BackOfficeNavbar.tsx'

const CONNECT_COMMANDS = `SANITY_STUDIO_PROJECT_ID=<your project id>
SANITY_STUDIO_DATASET=production`

/**
 * The whole studio when no Sanity project is configured: how to connect one, instead of the request errors the
 * studio would show for a project that does not exist.
 */
export function ConnectProjectScreen() {
  return (
    <Card height="fill" overflow="auto" paddingY={[4, 5, 6]} paddingX={4} tone="default">
      <Container width={2}>
        <Stack as="main" space={5}>
          <Heading as="h1" size={3}>
            Connect a Sanity project to edit content
          </Heading>
          <Text as="p">
            The studio has no Sanity project to edit: <code>SANITY_STUDIO_PROJECT_ID</code> is not set.
          </Text>
          <Stack space={4}>
            <Heading as="h2" size={1}>
              What works without one
            </Heading>
            <Text as="p">
              The site runs offline on the dataset shipped in <code>packages/content/dataset</code>: every page, registrations and payments in the sandbox, and
              the back office at <a href={`${SITE_URL}/admin`}>{`${SITE_URL}/admin`}</a>. To edit a local copy of that content without a project, start the
              studio with <code>pnpm dev</code> at the repository root instead: it runs beside the site, which shows what you publish.
            </Text>
          </Stack>
          <Heading as="h2" size={1}>
            Connect one
          </Heading>
          <Stack as="ol" space={4} style={{ margin: 0, paddingLeft: '1.2em' }}>
            <Text as="li">
              Create a project with a public <code>production</code> dataset at <a href="https://www.sanity.io/manage">sanity.io/manage</a>, or with{' '}
              <code>pnpm exec sanity projects create</code> in <code>studio/</code>.
            </Text>
            <Stack as="li" space={3}>
              <Text>
                Put its id in <code>studio/.env.local</code> (or export the variables in the shell that runs <code>pnpm dev</code>):
              </Text>
              <Card padding={3} radius={2} tone="transparent" border>
                <Code size={1}>{CONNECT_COMMANDS}</Code>
              </Card>
            </Stack>
            <Text as="li">
              Import the shipped dataset into it (<code>sanity dataset import</code>, see <code>studio/README.md</code>), restart <code>pnpm dev</code> and log
              in.
            </Text>
            <Text as="li">
              Point the site at the same project with <code>SANITY_PROJECT_ID</code> and <code>SANITY_DATASET</code>.
            </Text>
          </Stack>
        </Stack>
      </Container>
    </Card>
  )
}
