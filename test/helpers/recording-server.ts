import { HttpResponse, http, type JsonBodyType } from "msw";
import { afterEach } from "vitest";
import { useMswServer } from "./msw.js";
import { holdsAnswers } from "./time.js";

/** What a test handler saw of one request. */
export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

export const BASE_URL = "https://api.merchant-payments.test";
export const TEST_KEY = "mock_test_sk_4f9a1c7e2b";
export const LIVE_KEY = "mock_sk_live_8d2e6f0a13";

/**
 * An MSW server for the whole file that records every request and answers with the queued responses (last one
 * repeats). By default it answers 200 `{}`.
 */
export function useRecordingServer() {
  const requests: Recorded[] = [];
  let queue: Array<() => Response | Promise<Response>> = [];
  // Answers under way (a delayed answer is held back on purpose): fake time may pass while they wait.
  let answering = 0;
  holdsAnswers(() => answering);
  const server = useMswServer(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      requests.push({
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: await request.text(),
      });
      const next = queue.length > 1 ? queue.shift() : queue[0];
      // An answer held back ends when the client gives up on it (a timeout, an abort).
      let holding = true;
      const release = () => {
        if (holding) answering--;
        holding = false;
      };
      answering++;
      request.signal.addEventListener("abort", release, { once: true });
      try {
        return await (next ? next() : HttpResponse.json({}));
      } finally {
        release();
      }
    }),
  );
  afterEach(() => {
    requests.length = 0;
    queue = [];
  });
  return {
    server,
    requests,
    /** Answers the next requests in order; the last answer repeats. */
    respond(...answers: Array<() => Response | Promise<Response>>) {
      queue = answers;
    },
  };
}

/** A JSON answer. */
export const json =
  (body: JsonBodyType, status = 200, headers: HeadersInit = {}) =>
  () =>
    HttpResponse.json(body, { status, headers });

/** The service's error body. */
export const apiError = (status: number, code: string, headers: Record<string, string> = {}) =>
  json({ message: `${code} happened`, code }, status, headers);

/** A dropped connection. */
export const networkError = () => () => HttpResponse.error();
