// Card pictures drawn as SVG: canonical names (SA, HT, D10?, BJ, LJ) -> a small face-up card.
"use strict";
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { T: "10" };
function cardSVG(name) {
  const red = name[0] === "H" || name[0] === "D" || name === "BJ";
  const colour = red ? "#c8102e" : "#111";
  let corner, middle;
  if (name === "BJ" || name === "LJ") {
    corner = `<text x="6" y="17" font-size="11" font-weight="700" fill="${colour}" writing-mode="tb">JOKER</text>`;
    middle = `<text x="31" y="50" font-size="22" text-anchor="middle" fill="${colour}">${name === "BJ" ? "★" : "☆"}</text>`;
  } else {
    const rank = RANK[name.slice(1)] || name.slice(1);
    corner = `<text x="5" y="17" font-size="15" font-weight="700" fill="${colour}">${rank}</text>` +
             `<text x="5" y="31" font-size="13" fill="${colour}">${SUIT[name[0]]}</text>`;
    middle = `<text x="31" y="56" font-size="30" text-anchor="middle" fill="${colour}">${SUIT[name[0]]}</text>`;
  }
  return `<svg class="card" data-card="${esc(name)}" viewBox="0 0 50 70" role="img" aria-label="${esc(name)}">` +
    `<rect x="1" y="1" width="48" height="68" rx="5" fill="#fff" stroke="#555" stroke-width="1.2"/>${corner}${middle}</svg>`;
}
function cardsHTML(cards) { return `<span class="cards">${(cards || []).map(cardSVG).join("")}</span>`; }
function suitHTML(suit) { return suit ? `<span class="suit ${"HD".includes(suit) ? "red" : ""}">${SUIT[suit]}</span>` : ""; }
