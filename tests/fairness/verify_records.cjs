// node: fairness.js's verifyRecord over the records in a JSON file ({name: record}); prints
// {name: {commitment, checks (those not unseen), unseen, confirmed, problems}} as JSON.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..", "..");
const F = require(path.join(root, "referee", "http", "static", "fairness.js"));

async function main() {
  const records = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const results = {};
  for (const [name, record] of Object.entries(records)) {
    const result = await F.verifyRecord(record);
    results[name] = { commitment: result.commitment,
                      checks: result.checks.filter((c) => !c.unseen).length,
                      unseen: result.checks.filter((c) => c.unseen).length,
                      confirmed: result.checks.filter((c) => c.ok).length,
                      problems: result.problems,
                      link: F.recordLink("https://referee.example/", record) };
  }
  console.log(JSON.stringify(results));
}

main().catch((error) => { console.error(error); process.exit(1); });
