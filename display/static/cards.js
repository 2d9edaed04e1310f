// Card pictures drawn as SVG: canonical names (SA, HT, BJ, LJ) -> a small face-up card. Each face is
// drawn once, as a <symbol> of a sprite in the page; a card on the table is a <use> of it.
"use strict";
const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK = { T: "10" };
const FACES = new Set();
function cardFace(name) {
  const red = name[0] === "H" || name[0] === "D" || name === "BJ";
  const colour = red ? "#c8102e" : "#111";
  let corner, middle;
  if (name === "BJ" || name === "LJ") {
    corner = `<text x="5" y="17" font-size="13" font-weight="700" fill="${colour}">${name === "BJ" ? "★" : "☆"}</text>`;  // no word: the picture reads in both languages
    middle = `<text x="31" y="50" font-size="22" text-anchor="middle" fill="${colour}">${name === "BJ" ? "★" : "☆"}</text>`;
  } else {
    const rank = RANK[name.slice(1)] || name.slice(1);
    corner = `<text x="5" y="17" font-size="15" font-weight="700" fill="${colour}">${rank}</text>` +
             `<text x="5" y="31" font-size="13" fill="${colour}">${SUIT[name[0]]}</text>`;
    middle = `<text x="31" y="56" font-size="30" text-anchor="middle" fill="${colour}">${SUIT[name[0]]}</text>`;
  }
  return `<rect x="1" y="1" width="48" height="68" rx="5" fill="#fff" stroke="#555" stroke-width="1.2"/>${corner}${middle}`;
}
function cardSVG(name) {
  if (!/^([SHDC]([2-9TJQKA]|10)|BJ|LJ)$/.test(name)) return "";
  if (!FACES.has(name)) {
    let sprite = document.getElementById("card-sprite");
    if (!sprite) {
      sprite = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      sprite.id = "card-sprite";  // hidden by style.css (no inline style: the pages keep a strict CSP)
      sprite.setAttribute("aria-hidden", "true");
      document.body.prepend(sprite);
    }
    sprite.insertAdjacentHTML("beforeend", `<symbol id="card-${name}" viewBox="0 0 50 70">${cardFace(name)}</symbol>`);
    FACES.add(name);
  }
  return `<svg class="card" data-card="${name}" viewBox="0 0 50 70" role="img" aria-label="${esc(cardWords(name))}"><use href="#card-${name}"/></svg>`;
}
function cardWords(name) {  // a card as the reader says it: 方块K, K of diamonds, 大王
  if (name === "BJ" || name === "LJ") return W("card." + name);
  return T("card_name", { suit: W("suit." + name[0]), rank: RANK[name.slice(1)] || name.slice(1) });
}
function cardsHTML(cards) { return `<span class="cards">${(cards || []).map(cardSVG).join("")}</span>`; }
// A sentence said by the server as HTML, its red suits red as on the cards and the tiles' trump (♥3, ♦K: they read white)
function saidHTML(text) { return esc(text).replace(/[♥♦]/g, m => `<span class="suit red">${m}</span>`); }
function suitHTML(suit) { return suit ? `<span class="suit ${"HD".includes(suit) ? "red" : ""}">${SUIT[suit]}</span>` : ""; }
