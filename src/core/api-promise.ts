/**
 * Response metadata beside the data, never inside its JSON: every result carries its request id as a non-enumerable
 * `_requestId`, and every method's promise has `.withResponse()` for the status, the headers (credentials removed)
 * and whether the service replayed an idempotent response.
 *
 * @module
 */

/** What arrived with a result, as `.withResponse()` gives it. */
export interface ResponseInfo {
  /** The HTTP status of the response. */
  status: number;
  /** The response's headers, a copy without credential or cookie headers, the API key redacted from every value. */
  headers: Headers;
  /** The request id the service sent in a response header (see docs/guide.md, "Response metadata"), if any. */
  requestId: string | undefined;
  /** True when the service answered `Idempotent-Replayed: true`: it replayed an earlier response for the same key. */
  idempotentReplayed: boolean;
}

/**
 * A result as the SDK resolves it: objects carry their request id as `_requestId`, a non-enumerable property, so it
 * shows in neither `JSON.stringify`, `Object.keys` nor a spread copy.
 */
export type WithRequestId<T> = T extends object
  ? T & {
      /** The request id of the response this result came from (non-enumerable; `undefined` when it carried none). */
      readonly _requestId: string | undefined;
    }
  : T;

/** One call that got its result, as the transport hands it to {@link APIPromise}. @internal */
export interface CallResult<T> {
  data: T;
  status: number;
  requestId: string | undefined;
  /** The response's headers as they arrived, credentials and all: shown only through {@link CallResult.view}. */
  rawHeaders: Headers;
  /** How the client shows a response's headers: one per client, so that a call builds nothing it may never show. */
  view: ResponseView;
}

/** How `withResponse()` reads a response's headers, only when someone asks for them. @internal */
export interface ResponseView {
  /** The exposed copy of the headers: credentials and cookies removed, the key redacted. */
  headers(raw: Headers): Headers;
  /** Whether the service replayed an earlier response for the same idempotency key. */
  idempotentReplayed(raw: Headers): boolean;
}

/**
 * The promise every request method returns: await it for the data, or call {@link APIPromise.withResponse} for the
 * data and the response's metadata. A `Promise` in every other respect.
 */
export class APIPromise<T> extends Promise<WithRequestId<T>> {
  readonly #result: Promise<CallResult<T>>;

  /** @internal Created by the client's request methods. */
  constructor(result: Promise<CallResult<T>>) {
    // The native state is unused: `then` reads the result, so a call used only through `withResponse()` leaves no
    // second, unobserved rejection behind.
    super(settleUnused);
    this.#result = result;
  }

  /** `then`, `catch` and `finally` of derived promises build plain Promises (the constructor takes a result). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data and what arrived with it: `{ data, response: { status, headers, requestId, idempotentReplayed } }`. */
  async withResponse(): Promise<{
    /** The result, as awaiting the promise gives it. */
    data: WithRequestId<T>;
    /** The response's metadata. */
    response: ResponseInfo;
  }> {
    const result = await this.#result;
    const { status, requestId, rawHeaders, view } = result;
    return {
      data: withRequestId(result.data, requestId),
      response: {
        status,
        headers: view.headers(rawHeaders),
        requestId,
        idempotentReplayed: view.idempotentReplayed(rawHeaders),
      },
    };
  }

  /** @internal A promise of `fn(data)` with the same response: for methods that unwrap or decode a body. */
  map<U>(fn: (data: T) => U): APIPromise<U> {
    return new APIPromise(this.#result.then((result) => ({ ...result, data: fn(result.data) })));
  }

  // oxlint-disable-next-line unicorn/no-thenable -- a Promise subclass; `then` reads the result instead of the unused native state.
  override then<R1 = WithRequestId<T>, R2 = never>(
    onfulfilled?: ((value: WithRequestId<T>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // One reaction on the result: the data is made inside the caller's handler, not as a promise of its own between.
    const fulfilled =
      typeof onfulfilled === "function"
        ? (result: CallResult<T>) => onfulfilled(dataOf(result))
        : (dataOf as (result: CallResult<T>) => R1);
    return this.#result.then(fulfilled, onrejected);
  }
}

/** Settles an {@link APIPromise}'s unused native state (a function of the module's: no closure per call). */
function settleUnused(resolve: (value: never) => void): void {
  resolve(null as never);
}

/** The data of a result as awaiting its promise gives it. */
function dataOf<T>(result: CallResult<T>): WithRequestId<T> {
  return withRequestId(result.data, result.requestId);
}

/** Puts the request id on an object result, non-enumerable; other values (and frozen objects) stay as they are. */
function withRequestId<T>(data: T, requestId: string | undefined): WithRequestId<T> {
  if (typeof data === "object" && data !== null && Object.isExtensible(data)) {
    Object.defineProperty(data, "_requestId", { value: requestId, enumerable: false, configurable: true });
  }
  return data as WithRequestId<T>;
}
