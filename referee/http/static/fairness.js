// The referee's random source and the check of a match record, in plain JavaScript with Web
// Crypto (a browser's `crypto.subtle`, or node's). The specification, with test vectors, is
// docs/FAIRNESS.md; the Python twin is referee/core/rng.py. Loaded by /verify as a script,
// and by node as a CommonJS module.
(function (root) {
  "use strict";

  const subtle = root.crypto.subtle;
  const encoder = new TextEncoder();
  const WORD_RANGE = 2 ** 32;

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256Hex(text) {
    return hex(await subtle.digest("SHA-256", encoder.encode(text)));
  }

  // The public commitment: SHA-256 of the seed's UTF-8 bytes, in hex.
  function commitment(seed) {
    return sha256Hex(seed);
  }

  async function hmacKey(seed) {
    return subtle.importKey("raw", encoder.encode(seed), { name: "HMAC", hash: "SHA-256" },
                            false, ["sign"]);
  }

  // The draws of one chance event: block i is HMAC-SHA256(seed, "step:i"), read as
  // big-endian 32-bit words.
  class Stream {
    constructor(key, step) {
      this.key = key;
      this.step = step;
      this.blockIndex = 0;
      this.words = [];
      this.next = 0;
    }

    async block(index) {
      const message = encoder.encode(`${this.step}:${index}`);
      return new Uint8Array(await subtle.sign("HMAC", this.key, message));
    }

    async word() {
      if (this.next === this.words.length) {
        const bytes = await this.block(this.blockIndex);
        const view = new DataView(bytes.buffer);
        this.words = [];
        for (let i = 0; i < 32; i += 4) this.words.push(view.getUint32(i, false));
        this.blockIndex += 1;
        this.next = 0;
      }
      const word = this.words[this.next];
      this.next += 1;
      return word;
    }

    // A uniform integer in [0, n): words at or above the largest multiple of n below 2^32
    // are skipped (rejection sampling, no modulo bias).
    async below(n) {
      if (!Number.isInteger(n) || n < 1 || n > WORD_RANGE) {
        throw new RangeError(`below(${n}): n must be between 1 and 2^32`);
      }
      const limit = WORD_RANGE - (WORD_RANGE % n);
      for (;;) {
        const word = await this.word();
        if (word < limit) return word % n;
      }
    }

    async die() {
      return 1 + (await this.below(6));
    }

    async dice(count) {
      const out = [];
      for (let i = 0; i < count; i += 1) out.push(await this.die());
      return out;
    }

    // Fisher-Yates over the items in the order given: position i swaps with below(i + 1),
    // from the last position down to 1.
    async shuffle(items) {
      const pile = items.slice();
      for (let i = pile.length - 1; i > 0; i -= 1) {
        const j = await this.below(i + 1);
        [pile[i], pile[j]] = [pile[j], pile[i]];
      }
      return pile;
    }
  }

  async function stream(seed, step) {
    return new Stream(await hmacKey(seed), step);
  }

  // Strings in Unicode code point order (Python's order; JavaScript's default sort compares
  // UTF-16 units, which differs beyond the Basic Multilingual Plane).
  function codePointCompare(a, b) {
    const x = Array.from(a, (c) => c.codePointAt(0));
    const y = Array.from(b, (c) => c.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      if (x[i] !== y[i]) return x[i] - y[i];
    }
    return x.length - y.length;
  }

  function sortedItems(items) {
    return items.slice().sort(codePointCompare);
  }

  const api = { commitment, sha256Hex, stream, Stream, sortedItems, codePointCompare, hex };
  root.RefereeFairness = Object.assign(root.RefereeFairness || {}, api);
  if (typeof module !== "undefined" && module.exports) module.exports = root.RefereeFairness;
})(typeof globalThis !== "undefined" ? globalThis : this);
