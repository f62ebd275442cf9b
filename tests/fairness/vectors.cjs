// node: fairness.js against the test vectors of docs/FAIRNESS.md (the JSON block there).
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const F = require(path.join(root, "referee", "http", "static", "fairness.js"));
const doc = fs.readFileSync(path.join(root, "docs", "FAIRNESS.md"), "utf8");
const vectors = JSON.parse(doc.split("## Test vectors")[1].split("```json")[1].split("```")[0]);

async function main() {
  let checks = 0;
  for (const c of vectors.commitments) {
    assert.equal(await F.commitment(c.seed), c.commitment, `commitment of ${c.seed}`);
    checks += 1;
  }
  for (const c of vectors.blocks) {
    const s = await F.stream(c.seed, c.step);
    assert.equal(F.hex(await s.block(c.index)), c.hex, `block ${c.index} of ${c.seed}:${c.step}`);
    checks += 1;
  }
  for (const c of vectors.words) {
    const s = await F.stream(c.seed, c.step);
    const words = [];
    for (let i = 0; i < c.words.length; i += 1) words.push(await s.word());
    assert.deepEqual(words, c.words);
    checks += 1;
  }
  for (const c of vectors.below) {
    const s = await F.stream(c.seed, c.step);
    const draws = [];
    for (let i = 0; i < c.draws.length; i += 1) draws.push(await s.below(c.n));
    assert.deepEqual(draws, c.draws, `below(${c.n}) at step ${c.step}`);
    assert.equal(s.blockIndex * 8 - (s.words.length - s.next), c.words_read);
    checks += 1;
  }
  for (const c of vectors.dice) {
    const s = await F.stream(c.seed, c.step);
    assert.deepEqual(await s.dice(c.count), c.dice);
    checks += 1;
  }
  for (const c of vectors.shuffles) {
    assert.deepEqual(F.sortedItems(c.items), c.items, "the vector's items are sorted");
    const s = await F.stream(c.seed, c.step);
    assert.deepEqual(await s.shuffle(c.items), c.order);
    checks += 1;
  }
  // A deck named in a chance object is the sorted deck of the 54-card vector.
  assert.deepEqual(F.deckItems({ jokers: 2, copies: 1 }), vectors.shuffles[0].items);
  assert.equal(F.deckItems({ jokers: 1, copies: 2 }).length, 106);
  assert.equal(F.deckItems({ jokers: 3, copies: 1 }), undefined);
  await assert.rejects((await F.stream("x", 0)).below(0), RangeError);
  // Code point order, not UTF-16 order: U+1F0A1 (a playing card) sorts after U+FF21.
  assert.deepEqual(F.sortedItems(["\u{1F0A1}", "\uFF21", "A"]), ["A", "\uFF21", "\u{1F0A1}"]);
  console.log(`vectors ok: ${checks}`);
}

main().catch((error) => { console.error(error); process.exit(1); });
