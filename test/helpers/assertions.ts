import { expect } from "vitest";
import { InputValidationError } from "../../src/errors.js";
import type { Recorded } from "./recording-server.js";

/** Runs an async call that must fail, and returns what it threw. */
export async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** Runs a synchronous call that must throw an {@link InputValidationError}, and returns it. */
export function inputError(fn: () => unknown): InputValidationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputValidationError);
    return error as InputValidationError;
  }
  throw new Error("expected an InputValidationError, nothing was thrown");
}

/**
 * Runs an async call that must be refused with an {@link InputValidationError} before any request is sent
 * (`requests` is what the recording server saw), and returns the error.
 */
export async function refusedBeforeSending(
  call: () => Promise<unknown>,
  requests: readonly Recorded[],
): Promise<InputValidationError> {
  const error = await failure(call);
  expect(error).toBeInstanceOf(InputValidationError);
  expect(requests).toHaveLength(0);
  return error as InputValidationError;
}
