import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running node:http server on an ephemeral port. */
export interface TestServer {
  origin: string
  /** Methods and paths of the requests received, oldest first. */
  requests: { method: string; path: string }[]
  close(): Promise<void>
}

/** Serves a WHATWG-fetch-style handler over node:http on 127.0.0.1, answering 404 where it declines. */
export async function serveFetchHandler(handle: (request: Request) => Promise<Response | undefined>): Promise<TestServer> {
  const requests: TestServer['requests'] = []
  const server: Server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? 'GET', path: incoming.url ?? '/' })
    toRequest(incoming)
      .then(handle)
      .then(async (response) => {
        if (!response) {
          outgoing.writeHead(404).end()
          return
        }
        outgoing.writeHead(response.status, Object.fromEntries(response.headers))
        outgoing.end(Buffer.from(await response.arrayBuffer()))
      })
      .catch((error: unknown) => {
        outgoing.writeHead(500).end(String(error))
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

async function toRequest(incoming: IncomingMessage): Promise<Request> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined) headers.append(name, item)
    }
  }
  const method = incoming.method ?? 'GET'
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks)
  return new Request(`http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? '/'}`, { method, headers, body })
}
