// Check a result the referee signed, in JavaScript:
//   node scripts/verify_result.mjs STATEMENT KEYS
// STATEMENT is the `result.statement` of a finished match's answer (a compact JWS) or a file
// holding it; KEYS is the referee's published keys, its /.well-known/jwks.json address or a
// file holding them. Prints the statement's payload as JSON and exits 0 when the signature
// is the referee's; otherwise says why and exits 1 (altered anywhere, a key the set does not
// hold, not an EdDSA JWS).
//
// Needs Node 20+ and nothing else: Ed25519 is in its WebCrypto (`crypto.subtle`), and the
// same function runs in a browser. With the `jose` package it is
// `jwtVerify(statement, createLocalJWKSet(keys), {algorithms: ["EdDSA"]})`.
// Import `verifyResult` to use it from your own code.

import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

const B64URL = /^[A-Za-z0-9_-]*$/;

function decode(text) {
  if (!B64URL.test(text)) throw new Error("not base64url");
  const raw = Buffer.from(text, "base64url");
  // The one spelling that encodes back to itself: no character may change unnoticed.
  if (raw.toString("base64url") !== text) throw new Error("not base64url in its canonical spelling");
  return raw;
}

export async function verifyResult(statement, keys) {
  const parts = statement.trim().split(".");
  if (parts.length !== 3) throw new Error("a statement is a compact JWS: three parts separated by dots");
  const header = JSON.parse(decode(parts[0]).toString("utf8"));
  if (header === null || header.alg !== "EdDSA") throw new Error("the statement is not signed with EdDSA");
  const jwk = (keys.keys || []).find(
    (k) => k && k.kid === header.kid && k.kty === "OKP" && k.crv === "Ed25519");
  if (!jwk) throw new Error(`no Ed25519 key ${JSON.stringify(header.kid)} among the published keys`);
  const key = await crypto.subtle.importKey(
    "jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
  const good = await crypto.subtle.verify({ name: "Ed25519" }, key, decode(parts[2]), signed);
  if (!good) {
    throw new Error(`the signature does not match: the statement was altered or not signed by key ${JSON.stringify(header.kid)}`);
  }
  const payload = JSON.parse(decode(parts[1]).toString("utf8"));
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new Error("the statement's payload is not a JSON object");
  }
  return payload;
}

async function read(source) {
  if (/^https?:\/\//.test(source)) return (await fetch(source)).text();
  if (source.length < 4096 && existsSync(source)) return readFile(source, "utf8");
  return source;
}

async function main(args) {
  if (args.length !== 2) {
    console.error("usage: node verify_result.mjs STATEMENT KEYS");
    return 2;
  }
  try {
    const payload = await verifyResult(await read(args[0]), JSON.parse(await read(args[1])));
    console.log(JSON.stringify(payload, null, 2));
    return 0;
  } catch (error) {
    console.error(`not verified: ${error.message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
