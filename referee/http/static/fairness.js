// The referee's random source and the check of a match record, in plain JavaScript with Web
// Crypto (a browser's `crypto.subtle`, or node's). The specification, with test vectors, is
// docs/FAIRNESS.md; the Python twin is referee/core/rng.py. Loaded by /verify as a script,
// and by node as a CommonJS module.
(function (root) {
  "use strict";

  // Web Crypto exists only in a secure context (HTTPS or localhost) in browsers.
  const subtle = root.crypto && root.crypto.subtle;
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

  // The server seed with contributed seeds mixed in, in order (docs/FAIRNESS.md,
  // "Contributions"): key = hex(HMAC-SHA256(key = key, message = contributed seed)).
  async function mixedKey(seed, contributed) {
    let key = seed;
    for (const one of contributed) {
      key = hex(await subtle.sign("HMAC", await hmacKey(key), encoder.encode(one)));
    }
    return key;
  }

  // What is wrong with a record's list of contributions, or null.
  function contributionProblem(contributions) {
    if (!Array.isArray(contributions) || !contributions.every(
      (c) => c && typeof c.seed === "string" && Number.isInteger(c.step) && c.step >= 0)) {
      return "the contributions are not a list of {player, seed, step}";
    }
    for (let i = 1; i < contributions.length; i += 1) {
      if (contributions[i].step < contributions[i - 1].step) {
        return "the contributions are not in the order they were made";
      }
    }
    const who = contributions.map((c) => (c.player === undefined ? null : c.player));
    if (new Set(who).size !== who.length) return "a contributor is listed twice";
    return null;
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

  // -- checking the chance events of a record (docs/FAIRNESS.md, "Checking a record") --------

  // What the event shows of the draw: its `field` ("name", or "name[].key" for the `key` of
  // each element of the list `name`), always as a list; undefined when absent.
  function shownBy(event, field) {
    const [name, key] = field.split("[].");
    const value = event[name];
    if (value === undefined) return undefined;
    if (key !== undefined) return Array.isArray(value) ? value.map((x) => x && x[key]) : undefined;
    return Array.isArray(value) ? value : [value];
  }

  // A whole deck named in a chance object: the 52 natural cards and the first `jokers` of
  // X1, X2, `copies` times, sorted; undefined when the description is not one.
  function deckItems(deck) {
    if (!deck || ![0, 1, 2].includes(deck.jokers) || ![1, 2].includes(deck.copies)) {
      return undefined;
    }
    const one = [];
    for (const suit of "CDHS") for (const rank of "23456789TJQKA") one.push(rank + suit);
    one.push(...["X1", "X2"].slice(0, deck.jokers));
    const all = [];
    for (let i = 0; i < deck.copies; i += 1) all.push(...one);
    return sortedItems(all);
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  // Recompute one chance event from the seed: null when it is confirmed, else what differs.
  async function checkChance(seed, event) {
    const c = event.chance;
    if (!c || !Number.isInteger(c.step) || c.step < 0) return "no valid chance object";
    const s = await stream(seed, c.step);
    let drawn;
    if (c.draw === "dice") {
      if (!Number.isInteger(c.count) || c.count < 0) return "dice without a count";
      drawn = await s.dice(c.count);
    } else if (c.draw === "pick") {
      if (!Array.isArray(c.items) || c.items.length === 0) return "a pick among no items";
      drawn = [c.items[await s.below(c.items.length)]];
    } else if (c.draw === "shuffle") {
      const items = c.deck === undefined ? c.items : deckItems(c.deck);
      if (!Array.isArray(items)) return "a shuffle of no items";
      if (!same(sortedItems(items), items)) return "the shuffled items are not sorted";
      const order = await s.shuffle(items);
      const positions = c.positions || [];
      if (positions.some((p) => !Number.isInteger(p) || p < 0 || p >= order.length)) {
        return "a position outside the shuffled cards";
      }
      if (positions.length === 0) return null; // nothing of the order is shown here
      drawn = positions.map((p) => order[p]);
    } else {
      return `unknown draw ${JSON.stringify(c.draw)}`;
    }
    if (typeof c.field !== "string") return "no field names what was drawn";
    const shown = shownBy(event, c.field);
    if (shown === undefined) return `the event has no ${c.field}`;
    if (!same(shown, drawn)) {
      return `${c.field} shows ${JSON.stringify(shown)}, the seed gives ${JSON.stringify(drawn)}`;
    }
    return null;
  }

  // Whether the event is a draw by another player than the record's viewer, whose cards (the
  // chance object's field) were shown to the drawer alone: its position is public, the cards
  // are not, so there is nothing to compare (docs/FAIRNESS.md, "Drawn cards").
  function unseen(record, event) {
    const c = event.chance;
    return Boolean(c) && typeof c.field === "string" && shownBy(event, c.field) === undefined
      && typeof record.viewer === "string" && event.player !== undefined
      && event.player !== record.viewer;
  }

  // The inputs of a draw, to notice one step drawn twice with different inputs (a re-roll).
  function drawKey(c) {
    return JSON.stringify([c.draw, c.count === undefined ? null : c.count, c.items || null,
                           c.deck || null, c.contributions || 0]);
  }

  // Check a record: {seed_commitment, seed, contributions (when seeds were contributed),
  // events: [[events of answer 1], ...]}. Returns
  // {commitment: true | false | null (no seed yet), checks: [{answer, index, type, step,
  // draw, contributions, ok, problem, unseen}], problems: [...], contributions: how many seeds
  // were contributed}. An `unseen` check (another player's draw, whose cards the viewer was
  // not shown) is neither confirmed nor a problem.
  async function verifyRecord(record) {
    const problems = [];
    const checks = [];
    if (!record || typeof record !== "object" || !Array.isArray(record.events)) {
      return { commitment: null, checks, problems: ["the record has no list of events"] };
    }
    const seed = typeof record.seed === "string" ? record.seed : null;
    let committed = null;
    if (seed === null) {
      problems.push("the record has no revealed seed (the match is not finished)");
    } else if (typeof record.seed_commitment !== "string") {
      problems.push("the record has no seed_commitment");
    } else {
      committed = (await commitment(seed)) === record.seed_commitment;
      if (!committed) problems.push("the revealed seed does not match the commitment");
    }
    const contributions = record.contributions === undefined ? [] : record.contributions;
    const wrong = contributionProblem(contributions);
    if (wrong !== null) {
      problems.push(wrong);
      return { commitment: committed, checks, problems };
    }
    const keys = [];
    if (seed !== null) {
      for (let n = 0; n <= contributions.length; n += 1) {
        keys.push(await mixedKey(seed, contributions.slice(0, n).map((x) => x.seed)));
      }
    }
    const steps = new Map();
    const shown = new Map(); // the positions of each step's shuffle shown so far
    for (let answer = 0; answer < record.events.length; answer += 1) {
      const events = Array.isArray(record.events[answer]) ? record.events[answer] : [];
      for (let index = 0; index < events.length; index += 1) {
        const event = events[index];
        if (!event || typeof event !== "object" || !("chance" in event)) continue;
        const c = event.chance || {};
        const check = { answer, index, type: event.type, step: c.step, draw: c.draw,
                        ok: false, problem: null, unseen: unseen(record, event) };
        if (seed === null) {
          check.problem = "not checked: no seed";
        } else {
          const used = c.contributions === undefined ? 0 : c.contributions;
          const due = contributions.filter((x) => Number.isInteger(c.step) && x.step <= c.step)
            .length;
          check.contributions = used;
          check.problem = used !== due
            ? `it names ${used} contributions, the record's list has ${due} made by its step`
            : check.unseen ? null : await checkChance(keys[due], event);
          const key = drawKey(c);
          if (check.problem === null && steps.has(c.step) && steps.get(c.step) !== key) {
            check.problem = `step ${c.step} was already drawn with other inputs`;
          }
          if (!steps.has(c.step)) steps.set(c.step, key);
          const positions = c.draw === "shuffle" && Array.isArray(c.positions) ? c.positions : [];
          if (check.problem === null) {
            if (!shown.has(c.step)) shown.set(c.step, new Set());
            const seen = shown.get(c.step);
            const again = positions.find((p) => seen.has(p));
            if (again !== undefined) {
              check.problem = `position ${again} of step ${c.step} was already shown: a `
                + "shuffled card comes out once";
            }
            positions.forEach((p) => seen.add(p));
          }
          check.ok = check.problem === null && !check.unseen;
        }
        if (check.problem !== null) {
          problems.push(`answer ${answer + 1}, event ${index + 1} (${event.type}): ${check.problem}`);
        }
        checks.push(check);
      }
    }
    if (seed !== null && checks.length === 0) problems.push("the record holds no chance event");
    return { commitment: committed, checks, problems, contributions: contributions.length };
  }

  // The link that opens /verify with a record, checked at once (docs/FAIRNESS.md, "The
  // /verify page"): the record's compact UTF-8 JSON in base64url without padding, in the
  // address's fragment, which a browser never sends to any server. `origin` is where the
  // referee is reached, e.g. "https://referee.example".
  function recordLink(origin, record) {
    const bytes = encoder.encode(JSON.stringify(record));
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    const base64url = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return `${origin.replace(/\/+$/, "")}/verify#record=${base64url}`;
  }

  const api = { recordLink, commitment, sha256Hex, stream, Stream, sortedItems, codePointCompare, hex,
                mixedKey, contributionProblem, checkChance, verifyRecord, shownBy, deckItems,
                unseen };
  root.RefereeFairness = Object.assign(root.RefereeFairness || {}, api);
  if (typeof module !== "undefined" && module.exports) module.exports = root.RefereeFairness;
})(typeof globalThis !== "undefined" ? globalThis : this);
