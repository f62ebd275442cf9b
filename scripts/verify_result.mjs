// Check a result the referee signed, in JavaScript:
//   node scripts/verify_result.mjs STATEMENT KEYS
// STATEMENT is the `result.statement` of a finished match's answer (a compact JWS) or a file
// holding it; KEYS is the referee's published keys, its /.well-known/jwks.json address or a
// file holding them. Prints the statement's payload as JSON and exits 0 when the signature
// is the referee's; otherwise says why and exits 1 (altered anywhere, a key the set does not
// hold, not an EdDSA JWS). Exits 2 when it could check nothing: not given both, or the keys
// not read (an address that does not answer them, a file or text that is not a JWK Set).
//
// The JWS is checked by `jose` (panva/jose), the JOSE library of JavaScript: maintained,
// without dependencies, the same code in Node, browsers and Deno. Its version is pinned by
// package-lock.json beside this script: run `npm ci` in scripts/ first (or, in a project of
// your own, `npm install jose`). Needs Node 20+ (Ed25519 in its WebCrypto).
// Import `verifyResult` to use it from your own code.

import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { compactVerify, createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader } from "jose";

// Nothing could be checked: the published keys were not read (`verifyResult` throws it, as
// any other refusal, with the reason in its message).
export class Unchecked extends Error {}

// What each refusal of jose means for a statement of the referee, by jose's error code; the
// key id quoted is the one the statement names.
const WHY = {
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: (kid) =>
    `the signature does not match: the statement was altered or not signed by key ${kid}`,
  ERR_JWKS_NO_MATCHING_KEY: (kid) => `no Ed25519 key ${kid} among the published keys`,
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: (kid) =>
    `more than one Ed25519 key ${kid} among the published keys`,
  ERR_JOSE_ALG_NOT_ALLOWED: () => "the statement is not signed with EdDSA",
  ERR_JWS_INVALID: (kid, error) =>
    `a statement is a compact JWS: three base64url parts separated by dots (${error.message})`,
};

// The refusals of jose that say the keys were not read, by its error code.
const UNREAD = {
  ERR_JWKS_INVALID: (error) => `the published keys are not a JWK Set (${error.message})`,
  ERR_JWKS_TIMEOUT: () => "the published keys did not come in time",
  ERR_JOSE_GENERIC: (error) => `the published keys were not answered (${error.message})`,
};

function namedKey(statement) {
  try {
    return JSON.stringify(decodeProtectedHeader(statement).kid ?? null);
  } catch {
    return "null";
  }
}

// A JWK Set as published, the address of one (a URL or its text: fetched and kept by jose),
// or a key set of jose's own making (`createRemoteJWKSet(...)`, to share its cache between
// calls).
function keySet(keys) {
  if (typeof keys === "function") return keys;
  if (keys instanceof URL) return createRemoteJWKSet(keys);
  if (typeof keys === "string" && isAddress(keys)) return createRemoteJWKSet(new URL(keys));
  if (keys === null || typeof keys !== "object" || !Array.isArray(keys.keys)) {
    throw new Unchecked("the published keys are not a JWK Set (an object whose `keys` is a list)");
  }
  return createLocalJWKSet(keys);
}

// A compact JWS (RFC 7515): three parts in base64url without padding, the payload not empty.
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export async function verifyResult(statement, keys) {
  const jws = typeof statement === "string" ? statement.trim() : statement;
  if (typeof jws === "string" && !COMPACT_JWS.test(jws)) {
    // jose's decoding would let padding by
    throw new Error("a statement is a compact JWS: three base64url parts separated by dots, " +
      "without padding");
  }
  const published = keySet(keys);
  let verified;
  try {
    // The payload is a statement, not a login token: its claims (`iat`) are facts to read,
    // not to hold against this machine's clock, so the JWS is checked, not a JWT.
    verified = await compactVerify(jws, published, { algorithms: ["EdDSA"] });
  } catch (error) {
    const unread = UNREAD[error.code];
    if (unread) throw new Unchecked(unread(error));
    // fetch's own failure (no answer at all), met only while fetching the keys
    if (error instanceof TypeError && error.message === "fetch failed") {
      const why = error.cause?.message ?? error.message;
      throw new Unchecked(`the published keys were not answered (${why})`);
    }
    const why = WHY[error.code];
    if (why) throw new Error(why(namedKey(jws), error));
    throw new Error(`not an EdDSA JWS of a published key: ${error.message}`);
  }
  let payload = null;
  try {
    payload = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(verified.payload));
  } catch {
    // Not UTF-8 JSON: refused below, as any payload that is not an object.
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new Error("the statement's payload is not a JSON object");
  }
  return payload;
}

function isAddress(source) {
  return /^https?:\/\//.test(source);
}

async function read(source) {
  if (isAddress(source)) {
    let answer;
    try {
      answer = await fetch(source);
    } catch (error) {
      throw new Unchecked(`could not read ${source} (${error.cause?.message ?? error.message})`);
    }
    if (!answer.ok) throw new Unchecked(`could not read ${source}: it answered ${answer.status}`);
    return answer.text();
  }
  if (source.length < 4096 && existsSync(source)) return readFile(source, "utf8");
  return source;
}

async function published(source) {
  if (isAddress(source)) return new URL(source);
  const text = await read(source);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Unchecked(`the published keys are not JSON (${error.message})`);
  }
}

async function main(args) {
  if (args.length !== 2) {
    console.error("usage: node verify_result.mjs STATEMENT KEYS");
    return 2;
  }
  try {
    const payload = await verifyResult(await read(args[0]), await published(args[1]));
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof Unchecked) {
      console.error(`not checked: ${error.message}`);
      return 2;
    }
    console.error(`not verified: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
