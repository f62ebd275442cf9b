// Creates a match of every game and posts a move of every move type, typed end to end by
// the types openapi-typescript generates from openapi.yaml (generated/api.d.ts), through
// openapi-fetch. It is type-checked, not run: `tsc --noEmit` must pass, and every line
// marked @ts-expect-error must really be an error (a move the contract does not allow, a
// field an event of that type does not have).
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api";

type Schemas = components["schemas"];
const referee = createClient<paths>({ baseUrl: "http://127.0.0.1:8000" });

// What a Generala (dice) event says, picked by its `type` alone: each `case` narrows the event
// to its own schema (no type guard), and an event of a type declared by a later version of the
// contract than the one the client names (Referee-Contract-Version) comes as `other`.
function describe(event: Schemas["GeneralaDiceEvent"]): string {
  switch (event.type) {
    case "match_created":
      return `players ${event.players.join(", ")}`;
    case "dice_rolled": {
      const dice: number[] = event.dice;
      // @ts-expect-error: a roll scores no box
      console.log(event.box);
      return `${event.player} rolled ${dice.join(" ")}`;
    }
    case "servida_generala":
      return `${event.player} wins at once`;
    case "box_scored": {
      const points: number = event.points;
      return `${event.player} scored ${points} in ${event.box}`;
    }
    case "turn_passed":
      return `${event.player} to play, until ${event.deadline ?? "no deadline"}`;
    case "timeout":
      return `${event.for} was late`;
    case "game_finished":
      return event.draw ? "a draw" : `won by ${event.winners.join(", ")}`;
    case "other": {
      const fields: { [key: string]: unknown } = event.data;
      return `${event.name} (${Object.keys(fields).length} fields)`;
    }
    default: {
      const unknownType: never = event;
      return unknownType;
    }
  }
}

async function generalaDice(): Promise<void> {
  const created = await referee.POST("/v1/games/generala-dice/matches", {
    body: { players: ["ann", "bob"], options: { turn_seconds: 0, full: 35 }, seed: 42, viewer: "ann" },
  });
  if (!created.data) throw new Error(created.error?.detail);
  // The answer's state is the schema a request posts back: it goes back as it is.
  let state: Schemas["GeneralaDicePostedState"] = created.data.state;
  const moves: Schemas["GeneralaDiceMove"][] = [
    { type: "roll", player: "ann", keep: [] },
    { type: "roll", player: "ann", keep: [6, 6] },
    { type: "score", player: "ann", box: "doble_generala" },
    { type: "timeout", player: "bob" },
  ];
  for (const move of moves) {
    const after = await referee.POST("/v1/games/generala-dice/moves", { body: { state, move, viewer: "ann" } });
    const events: Schemas["GeneralaDiceEvent"][] = after.data?.events ?? [];
    for (const event of events) console.log(describe(event));
    const scores: Schemas["GeneralaDiceScores"] | undefined = after.data?.scores;
    console.log(scores?.players["ann"]?.total, after.error?.code);
    if (after.data) state = after.data.state;
  }
  // @ts-expect-error: "chance" is not a box of the sheet
  const wrong: Schemas["GeneralaDiceMove"] = { type: "score", player: "ann", box: "chance" };
  console.log(wrong);
}

async function generalaCards(): Promise<void> {
  const created = await referee.POST("/v1/games/generala-cards/matches", {
    body: { players: ["ann", "bob", "cleo"], options: { variant: "braille", dealer: "1" } },
  });
  if (!created.data) throw new Error(created.error?.detail);
  const state = created.data.state;
  const moves: Schemas["GeneralaCardsMove"][] = [
    { type: "play", player: "bob", card: "X1" },
    { type: "refuse", player: "cleo", take: "AS" },
  ];
  for (const move of moves) {
    const verdict = await referee.POST("/v1/games/generala-cards/validations", { body: { state, move } });
    const legal: boolean | undefined = verdict.data?.legal;
    const after = await referee.POST("/v1/games/generala-cards/moves", { body: { state, move } });
    console.log(legal, after.data?.view?.hand);
  }
  // @ts-expect-error: a play names its card
  const wrong: Schemas["GeneralaCardsMove"] = { type: "play", player: "bob" };
  console.log(wrong);
}

async function huitAmericain(): Promise<void> {
  const created = await referee.POST("/v1/games/huit-americain/matches", {
    body: { players: ["ann", "bob"], options: { decks: 2, on_the_fly: true, effect_swap_hands: "Q" } },
  });
  if (!created.data) throw new Error(created.error?.detail);
  const state = created.data.state;
  const moves: Schemas["HuitAmericainMove"][] = [
    { type: "lay", player: "ann", card: "8H", suit: "S", announce: true },
    { type: "lay", player: "ann", card: "QH", target: "bob" },
    { type: "lay_out_of_turn", player: "bob", card: "8H" },
    { type: "draw", player: "ann" },
    { type: "pass", player: "ann" },
    { type: "challenge", player: "bob" },
    { type: "give", player: "ann", card: "2C" },
  ];
  for (const move of moves) {
    const after = await referee.POST("/v1/games/huit-americain/moves", { body: { state, move } });
    const view: Schemas["HuitAmericainView"] | undefined = after.data?.view;
    console.log(view?.hand_counts, after.error?.rule);
  }
  // @ts-expect-error: "Z" is not a suit
  const wrong: Schemas["HuitAmericainMove"] = { type: "lay", player: "ann", card: "8H", suit: "Z" };
  console.log(wrong);
}

async function empereur(): Promise<void> {
  const created = await referee.POST("/v1/games/empereur/matches", {
    body: { players: ["ann", "bob", "cleo"], options: { mode: "mirror_elite", target_points: 200 } },
  });
  if (!created.data) throw new Error(created.error?.detail);
  const state = created.data.state;
  const moves: Schemas["EmpereurMove"][] = [
    { type: "play", player: "ann", cards: ["7H", "7S", "X1"], rank: "7" },
    { type: "draw", player: "ann" },
    { type: "pass", player: "ann" },
    { type: "give", player: "bob", card: "2S", to: "ann" },
  ];
  for (const move of moves) {
    const listed = await referee.POST("/v1/games/empereur/legal-moves", { body: { state, player: move.player } });
    const after = await referee.POST("/v1/games/empereur/moves", { body: { state, move } });
    console.log(listed.data?.legal_moves.length, after.data?.scores.players);
  }
  const view = await referee.POST("/v1/games/empereur/views", { body: { state, player: "cleo" } });
  console.log(view.data?.view.roles);
  // @ts-expect-error: "1" is not a rank of L'Empereur
  const wrong: Schemas["EmpereurMove"] = { type: "play", player: "ann", cards: ["X1"], rank: "1" };
  console.log(wrong);
}

// A phone holds only its seat token (its back end keeps the state token): it lists its
// legal moves, dry-runs one and sees its view with that token alone.
async function phone(seatToken: Schemas["SeatToken"]): Promise<void> {
  const listed = await referee.POST("/v1/games/huit-americain/legal-moves", { body: { seat_token: seatToken } });
  const mine: Schemas["HuitAmericainMove"][] = listed.data?.legal_moves ?? [];
  for (const move of mine) {
    const verdict = await referee.POST("/v1/games/huit-americain/validations", { body: { seat_token: seatToken, move } });
    console.log(verdict.data?.legal, verdict.error?.code);
  }
  const seen = await referee.POST("/v1/games/huit-americain/views", { body: { seat_token: seatToken } });
  const view: Schemas["HuitAmericainView"] | undefined = seen.data?.view;
  console.log(view, seen.error?.code);
  // @ts-expect-error: moves are posted by the back end, with the state; a seat token is no field of them
  await referee.POST("/v1/games/huit-americain/moves", { body: { seat_token: seatToken, state: seatToken, move: mine[0] } });
}

async function backEnd(): Promise<void> {
  const created = await referee.POST("/v1/games/huit-americain/matches", {
    body: { players: ["ann", "bob"], viewer: "ann", seat_token_ttl: 3600 },
  });
  const seatToken: Schemas["SeatToken"] | undefined = created.data?.seat_token;
  if (seatToken) await phone(seatToken);
}

void Promise.all([generalaDice(), generalaCards(), huitAmericain(), empereur(), backEnd()]);
