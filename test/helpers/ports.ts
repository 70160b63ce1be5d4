/** Ports on 127.0.0.1 for the servers a test starts in another process. */
import { createServer } from "node:net";

/** A port free on 127.0.0.1 a moment ago (a server had it, then gave it back). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
