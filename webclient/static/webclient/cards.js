// Cards as the page shows them: in the order of the game's rules, readable without
// colour (a suit symbol and its letter), and named in full for screen readers.

export const RANKS = "3456789TJQKA2"; // every preset ranks 3 low, 2 high; suits vary
const SUITS = {
  C: { symbol: "\u2663", name: "clubs" },
  S: { symbol: "\u2660", name: "spades" },
  H: { symbol: "\u2665", name: "hearts" },
  D: { symbol: "\u2666", name: "diamonds" },
};
const RANK_NAMES = {
  3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace", 2: "two",
};

/** The card's strength under `suitOrder` (the rules' suits, low to high). */
export function cardValue(card, suitOrder = "CSHD") {
  return RANKS.indexOf(card[0]) * 4 + suitOrder.indexOf(card[1]);
}

/** A sorted copy, low to high, by the game's rules (`rules.suit_order`). */
export function sortCards(cards, rules) {
  const order = (rules?.suit_order) || "CSHD";
  return [...cards].sort((a, b) => cardValue(a, order) - cardValue(b, order));
}

export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUITS[card[1]].name}`;
}

export function cardsName(cards) {
  return cards.map(cardName).join(", ");
}

/** A card face: rank, suit symbol and suit letter. `button` makes it selectable. */
export function cardElement(card, { button = false, selected = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = `card suit-${card[1]}`;
  el.dataset.card = card;
  if (button) {
    el.type = "button";
    el.setAttribute("aria-pressed", String(selected));
  } else {
    el.setAttribute("role", "img");
  }
  el.setAttribute("aria-label", cardName(card));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = card[0] === "T" ? "10" : card[0];
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = SUITS[card[1]].symbol;
  const letter = document.createElement("span");
  letter.className = "suit-letter";
  letter.textContent = card[1];
  for (const part of [rank, suit, letter]) part.setAttribute("aria-hidden", "true");
  el.append(rank, suit, letter);
  return el;
}

/** A row of card faces (not selectable). */
export function cardRow(cards, rules) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const card of rules ? sortCards(cards, rules) : cards) row.append(cardElement(card));
  return row;
}

/** The same set of cards, whatever the order. */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.every((card, i) => card === sb[i]);
}
