// Completes package-lock.json with the optional, platform-specific packages that the npm registry reachable here
// does not serve (other platforms' binaries of biome, esbuild, rollup…). npm leaves them out of the lockfile when it
// cannot fetch them, and `npm ci` then refuses the lockfile as out of sync. Each stub names the version and the
// platform the package is for (read from its name), so npm skips it on any other platform, as it would anyway.
// Run after `npm install` changes the lockfile: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "netbsd",
  "openbsd",
  "sunos",
  "win32",
  "aix",
  "openharmony",
  "cygwin",
];
const CPU = ["arm64", "x64", "ia32", "arm", "loong64", "mips64el", "ppc64", "riscv64", "s390x", "wasm32"];
let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const parts = name.toLowerCase().split(/[-/@]/);
    const os = OS.find((o) => parts.includes(o) || (o === "win32" && parts.includes("windows")));
    const cpu = CPU.find((c) => parts.includes(c) || (c === "arm" && parts.includes("gnueabihf")));
    if (!os && !cpu && name !== "fsevents") continue; // not a platform binary: leave npm's judgement alone
    lock.packages[`node_modules/${name}`] = {
      version: range.replace(/^[\^~=]/, ""),
      optional: true,
      ...(entry.dev ? { dev: true } : {}),
      os: [name === "fsevents" ? "darwin" : os].filter(Boolean),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(parts.includes("musl") ? { libc: ["musl"] } : parts.includes("gnu") ? { libc: ["glibc"] } : {}),
    };
    added++;
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform stubs`);
