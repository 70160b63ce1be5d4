/** The browser tests say why they skip, and fail instead when CI requires a browser. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserRequired, browserSkipReason, missingBrowser } from "../helpers/browser.js";

const ABSENT = "/nonexistent/chromium";

describe("browser tests without a browser", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("skip with a reason that names the missing binary and the fix, printed once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const reason = browserSkipReason("portal", { path: ABSENT, requireBrowser: false });
    expect(reason).toContain(`Chromium is not installed at ${ABSENT}`);
    expect(reason).toContain("bash scripts/ensure-chromium.sh");
    expect(reason).toContain("REQUIRE_BROWSER=1");
    expect(warn).toHaveBeenCalledExactlyOnceWith(reason);
  });

  it("do not skip when REQUIRE_BROWSER=1: the suite runs and fails on the missing browser", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(browserSkipReason("portal", { path: ABSENT, requireBrowser: true })).toBeNull();
    expect(missingBrowser(ABSENT)).toContain("bash scripts/ensure-chromium.sh");
    expect(warn).not.toHaveBeenCalled();
  });

  it("are required in any CI (CI=true) as with REQUIRE_BROWSER=1, and only there", () => {
    expect(browserRequired({ CI: "true" })).toBe(true);
    expect(browserRequired({ REQUIRE_BROWSER: "1" })).toBe(true);
    expect(browserRequired({})).toBe(false);
    expect(browserRequired({ CI: "false", REQUIRE_BROWSER: "0" })).toBe(false);
  });

  it("do not skip when the browser is there", () => {
    // Any existing executable stands in for Chromium: only its presence is checked.
    expect(browserSkipReason("portal", { path: process.execPath, requireBrowser: false })).toBeNull();
    expect(missingBrowser(process.execPath)).toBeNull();
  });
});
