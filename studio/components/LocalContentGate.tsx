import { Button, Card, Container, Heading, Stack, Text } from '@sanity/ui'
import { useEffect, useState } from 'react'
import type { LayoutProps } from 'sanity'

/**
 * The studio on local content, once the browser reaches the local stand-in of Sanity's API. Until the browser has
 * accepted the stand-in's certificate every request fails: this says how to accept it instead of an error screen.
 */
function LocalContentGate({ apiAddress, layout }: { apiAddress: string; layout: LayoutProps }) {
  const [reachable, setReachable] = useState<boolean | undefined>(undefined)
  useEffect(() => {
    let current = true
    fetch(new URL('v1/ping', apiAddress)).then(
      (response) => current && setReachable(response.ok),
      () => current && setReachable(false),
    )
    return () => {
      current = false
    }
  }, [apiAddress])
  if (reachable === undefined) return null
  if (reachable) return layout.renderDefault(layout)
  return (
    <Card height="fill" overflow="auto" paddingY={[4, 5, 6]} paddingX={4} tone="default">
      <Container width={1}>
        <Stack as="main" space={5}>
          <Heading as="h1" size={3}>
            Let this browser trust the local content API
          </Heading>
          <Text as="p">
            Without a Sanity project the studio edits the content on this computer through a local stand-in of Sanity&rsquo;s API at{' '}
            <a href={apiAddress}>{apiAddress}</a>. It uses a certificate made on this computer, which this browser has not accepted yet.
          </Text>
          <Text as="p">
            Open <a href={apiAddress}>{apiAddress}</a>, accept the warning (&ldquo;Advanced&rdquo;, then &ldquo;Proceed&rdquo;), and come back. If the page does
            not open, check that <code>pnpm dev</code> is running.
          </Text>
          <Button text="Try again" tone="primary" onClick={() => window.location.reload()} />
        </Stack>
      </Container>
    </Card>
  )
}

/** The studio's layout on local content, for `studio.components.layout`. */
export function localContentLayout(apiAddress: string) {
  return function LocalContentLayout(props: LayoutProps) {
    return <LocalContentGate apiAddress={apiAddress} layout={props} />
  }
}
