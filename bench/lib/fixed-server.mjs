// A minimal keep-alive HTTP server on 127.0.0.1 answering with fixed bodies, so that the client's cost dominates:
// GET  .../status -> 200, a ~600-byte payment status (valid for the SDK's schema)
// POST ...        -> 201, a payment creation answer (the request body is read in full first)
// Run as a child process: it prints `{ "url": ... }` once listening.
import { createServer } from "node:http";
import { CREATE_BODY, STATUS_BODY } from "./status-body.mjs";

const HEADERS = {
  "content-type": "application/json",
  "request-id": "req_TuuqNE4UYbMooDqpS2tb",
  "mock-version": "2026-02-19.preview",
};
const statusHeaders = { ...HEADERS, "content-length": String(Buffer.byteLength(STATUS_BODY)) };
const createHeaders = { ...HEADERS, "content-length": String(Buffer.byteLength(CREATE_BODY)) };

const server = createServer({ keepAlive: true }, (req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, statusHeaders);
    res.end(STATUS_BODY);
    return;
  }
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(201, createHeaders);
    res.end(CREATE_BODY);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}`, statusBytes: STATUS_BODY.length })}\n`,
  );
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
