import { expect } from "vitest";
import { ConfigurationError, InputValidationError } from "../../src/errors.js";
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

/** Runs a synchronous call that must throw an instance of `type`, and returns it. */
function thrownBy<E extends Error>(fn: () => unknown, type: new (...args: never[]) => E): E {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}, nothing was thrown`);
}

/** Runs a synchronous call that must throw an {@link InputValidationError}, and returns it. */
export function inputError(fn: () => unknown): InputValidationError {
  return thrownBy(fn, InputValidationError);
}

/** Runs a synchronous call (a client's construction) that must throw a {@link ConfigurationError}, and returns it. */
export function configError(fn: () => unknown): ConfigurationError {
  return thrownBy(fn, ConfigurationError);
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
