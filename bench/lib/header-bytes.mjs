// The bytes of each variant's request head (request line and headers, up to the blank line), as a raw TCP server on
// 127.0.0.1 receives them: every header a client adds is bytes to build, write and parse on every request.
import { createServer } from "node:net";
import { CREATE_BODY, STATUS_BODY } from "./status-body.mjs";

/** One answer per request head, on a kept-alive connection: the status body for a GET, the creation for a POST. */
function answer(head) {
  const post = head.startsWith("POST");
  const body = post ? CREATE_BODY : STATUS_BODY;
  return (
    `HTTP/1.1 ${post ? "201 Created" : "200 OK"}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\nrequest-id: req_TuuqNE4UYbMooDqpS2tb\r\n\r\n${body}`
  );
}

/** The length of the request that starts `buffer` (head and body), or -1 while it is incomplete. */
function requestLength(buffer) {
  const end = buffer.indexOf("\r\n\r\n");
  if (end === -1) return -1;
  const head = buffer.subarray(0, end + 4).toString("latin1");
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const last = buffer.indexOf("\r\n0\r\n\r\n", end);
    return last === -1 ? -1 : last + 7;
  }
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
  return buffer.length < end + 4 + length ? -1 : end + 4 + length;
}

/**
 * Request head bytes of each variant: `make(url)` gives `{ get: { name: call }, post: { name: call } }`; each call is
 * made twice and the second head counted (a connection's first request may differ).
 */
export async function requestHeadBytes(make) {
  let last = "";
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (let length = requestLength(buffer); length !== -1; length = requestLength(buffer)) {
        const request = buffer.subarray(0, length).toString("latin1");
        last = request.slice(0, request.indexOf("\r\n\r\n") + 4);
        buffer = buffer.subarray(length);
        socket.write(answer(last));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const groups = await make(`http://127.0.0.1:${server.address().port}`);
    const bytes = {};
    for (const method of ["get", "post"]) {
      bytes[method] = {};
      for (const [name, call] of Object.entries(groups[method])) {
        await call();
        await call();
        bytes[method][name] = Buffer.byteLength(last, "latin1");
      }
    }
    return bytes;
  } finally {
    server.close();
    // The clients keep their connections alive: closed here, so that nothing holds the process open.
    for (const socket of sockets) socket.destroy();
  }
}
