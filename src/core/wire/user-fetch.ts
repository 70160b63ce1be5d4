/**
 * A user's `fetch` under ky (and, in the fetch build, the runtime's global one): any implementation, whatever class
 * its responses are. ky hands it its own `Request`; the user's fetch is called once per attempt with a plain URL and
 * init (npm undici, node-fetch and others do not take the global `Request`), and its body is read here, counted while
 * it streams. ky then gets what it accepts, a global `Response` with the body whole, so ky's `timeout` covers the
 * body as it does with the default wire.
 *
 * Once the status has arrived the service has answered: a body that cannot be read whole is `unreadable`, never a
 * network failure (a keyed POST is not sent again because its body was of an unexpected kind, and an unkeyed one is
 * not reported as "could not reach the service" after the payment was made).
 *
 * @module
 */
import { readBodyText } from "./body.js";
import { WireFailure } from "./failure.js";
import type { FetchOptions } from "./pool.js";
import { fetchOver, plainHeaders, type Send } from "./request.js";
import { hasNoBody, wholeResponse } from "./response.js";

/** What is read of a user fetch's answer: a global `Response`, node-fetch 2's, or any look-alike. */
interface AnswerLike {
  status: number;
  headers: unknown;
  body?: unknown;
  text?: () => Promise<string>;
}

/** The send under ky when the user gave a `fetch`. */
export function createUserSend(own: typeof fetch, options: FetchOptions): Send {
  return async (request, body) => {
    const headers = plainHeaders(request.headers, options.headers, body);
    // ky's signal carries ky's timeout and the caller's abort, through the headers and the body.
    const { method, redirect, signal } = request;
    const answer = (await own(request.url, { method, headers, body, signal, redirect }).catch(
      (cause: unknown) => {
        throw answeredButUnreadable(cause) ? new WireFailure("unreadable", { cause }) : cause;
      },
    )) as unknown as AnswerLike;
    const status = answer.status;
    let text = "";
    if (!hasNoBody(method, status)) {
      try {
        text = await readBodyText(answer.body, answer.text?.bind(answer), options.maxResponseBytes);
      } catch (cause) {
        // ky's timeout and the caller's abort stop the body too: those are told apart by the caller of this fetch.
        if (cause instanceof WireFailure || signal.aborted) throw cause;
        throw new WireFailure("unreadable", { cause, status });
      }
    }
    return wholeResponse(status, headersOf(answer.headers), text);
  };
}

/** The same reading as a fetch whose `Request` carries its body: the bench's in-memory variants; tests. */
export function createUserFetch(own: typeof fetch, options: FetchOptions): typeof fetch {
  return fetchOver(createUserSend(own, options));
}

/**
 * True when a fetch rejected after the answer's headers arrived, because of them: undici (Node's global fetch)
 * refuses more than 5 content codings before it shows the status ("too many content-encodings"), where the Node
 * build reads the status and reports the body unreadable. Either way the service answered: never "could not reach".
 */
function answeredButUnreadable(cause: unknown): boolean {
  for (let error = cause, depth = 0; error instanceof Error && depth < 4; error = error.cause, depth++) {
    if (/too many content-encodings/i.test(error.message)) return true;
  }
  return false;
}

/** The answer's headers as global `Headers`: from a `Headers` of any class, an iterable of pairs, or an object. */
function headersOf(headers: unknown): Headers {
  try {
    return new Headers(headers as HeadersInit);
  } catch (cause) {
    throw new WireFailure("network", { cause });
  }
}
