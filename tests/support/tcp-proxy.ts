import { connect, createServer, type Server, type Socket } from 'node:net'

export type TcpProxy = Awaited<ReturnType<typeof startProxy>>

/** A TCP proxy (in front of PostgreSQL) that can be cut (connections dropped, new ones refused) and restored. */
export async function startProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = async () => {
    const current = createServer((client) => {
      const upstream = connect(targetPort, targetHost)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => current.listen(port, '127.0.0.1', resolve))
    port = (current.address() as { port: number }).port
    server = current
  }
  await listen()
  return {
    get port() {
      return port
    },
    async cut() {
      const current = server
      if (!current) return
      server = undefined
      const closed = new Promise((resolve) => current.close(resolve))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    async restore() {
      if (!server) await listen()
    },
  }
}
