// The workbench page: one client of the JSON API under /api/ (see the README), kept live by
// the server-sent events of /api/events. Every text from the game is set as text, never as HTML.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const STATUS_NAMES = {
  warnings: "warnings", untranslated: "untranslated", stale: "stale", overflow: "overflow",
  "low-res": "low-res art", changed: "changed", error: "cannot draw",
};

let meta = null;          // /api/state
let cards = [];           // /api/cards → cards
const byId = new Map();   // card id → card
const tiles = new Map();  // "id/lang" → tile element
let problemsCache = null; // /api/problems
let connectedOnce = false;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-")) node.setAttribute(name, value);
    else if (name === "style") Object.assign(node.style, value);  // CSSOM: allowed by the page's Content-Security-Policy
    else node[name] = value;
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function getJSON(url) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

// The comparison form of a name, as the server's read/names.py makes it: NFKC, lower case,
// without spaces, punctuation, symbols or control characters.
function normalise(text) {
  return text.normalize("NFKC").toLowerCase().replace(/[\p{P}\p{Z}\p{S}\p{C}]/gu, "");
}

function langName(code) {
  const found = meta.languages.find((l) => l.code === code);
  return found ? found.name : code;
}

// ── loading ────────────────────────────────────────────────────────────────
async function loadAll() {
  meta = await getJSON("/api/state");
  applyMeta();
  if (!meta.error) {
    const data = await getJSON("/api/cards");
    setCards(data.cards);
  }
  refreshProblems();
  await route();
}

function fillSelect(select, options) {
  const keep = select.value;
  while (select.options.length > 1) select.remove(1);
  for (const [value, label] of options) select.add(new Option(label, value));
  select.value = options.some(([v]) => v === keep) ? keep : "";
}

function applyMeta() {
  document.body.dataset.generation = meta.generation;
  if (meta.game) {
    $("#game").textContent = `${meta.game} — workbench`;
    document.title = `${meta.game} — ppgen workbench`;
  }
  if (meta.card) document.documentElement.style.setProperty("--card-ratio", `${meta.card.width_mm} / ${meta.card.height_mm}`);
  const first = meta.languages.length ? meta.languages[0].code : null;
  fillSelect($("#faction"), meta.factions.map((f) => [f.id, `${f.names[first] || f.id} (${f.code})`]));
  fillSelect($("#kind"), meta.kinds.map((k) => [k.id, k.name]));
  fillSelect($("#lang"), meta.languages.map((l) => [l.code, `${l.name} (${l.code})`]));
  const changed = $("#status-changed");
  changed.hidden = !meta.since;
  changed.textContent = meta.since ? `Changed since ${meta.since}` : "Changed since …";
  const list = $("#data-error-list");
  list.replaceChildren(...(meta.error || []).map((p) => el("li", { text: `${p.where}: ${p.severity}[${p.code}] ${p.message}` })));
  showProgress();
}

function showProgress() {
  const drawn = cards.reduce((n, c) => n + Object.values(c.faces).filter((f) => f.drawn).length, 0);
  const total = cards.reduce((n, c) => n + Object.keys(c.faces).length, 0);
  const progress = total && drawn < total ? `laying out ${drawn} of ${total} faces…` : "";
  if ($("#progress").textContent !== progress) $("#progress").textContent = progress;
}

function setCards(list) {
  cards = list;
  byId.clear();
  for (const card of cards) byId.set(card.id, card);
  buildGallery();
}

// ── the gallery ────────────────────────────────────────────────────────────
function buildGallery() {
  const gallery = $("#gallery");
  const seen = new Set();
  const order = [];
  for (const card of cards) {
    for (const lang of Object.keys(card.faces)) {
      const key = `${card.id}/${lang}`;
      seen.add(key);
      let tile = tiles.get(key);
      if (!tile) {
        tile = makeTile(card, lang);
        tiles.set(key, tile);
      }
      updateTile(tile, card, card.faces[lang], false);
      order.push(tile);
    }
  }
  for (const [key, tile] of tiles) if (!seen.has(key)) { tile.remove(); tiles.delete(key); }
  gallery.replaceChildren(...order);
  applyFilters();
  showProgress();
}

function makeTile(card, lang) {
  const [w, h] = meta.card ? meta.card.sizes.thumb : [238, 333];
  const img = el("img", { class: "face", alt: "", loading: "lazy", decoding: "async", width: w, height: h });
  return el("a", { class: "tile", href: `#/card/${card.id}?lang=${lang}`, "data-card": card.id, "data-lang": lang },
    img, el("div", { class: "caption" }));
}

function badges(status) {
  return el("div", { class: "badges" }, status.map((s) => el("span", { class: `badge ${s}`, text: STATUS_NAMES[s] || s })));
}

function updateTile(tile, card, face, flash = true) {
  const img = tile.querySelector("img");
  if (face.error) {
    if (!tile.querySelector(".broken")) img.replaceWith(el("div", { class: "broken face", text: face.error[0].message }));
  } else {
    const broken = tile.querySelector(".broken");
    const picture = broken ? el("img", { class: "face", alt: "", loading: "lazy", decoding: "async" }) : img;
    if (broken) broken.replaceWith(picture);
    if (picture.dataset.fingerprint !== face.fingerprint) {
      picture.src = face.pictures.thumb;
      if (flash && picture.dataset.fingerprint) {
        tile.classList.add("updated");
        setTimeout(() => tile.classList.remove("updated"), 2500);
      }
      picture.dataset.fingerprint = face.fingerprint;
    }
    const alt = `${card.code} ${face.name} (${face.lang})`;
    if (picture.alt !== alt) picture.alt = alt;
  }
  // What did not change is not touched: while the gallery loads, every block of faces drawn
  // arrives as an event, and a page rebuilt each time keeps the browser from showing pictures.
  const status = face.status.join(" ");
  if (tile.dataset.status !== status) tile.dataset.status = status;
  const caption = tile.querySelector(".caption");
  const said = JSON.stringify([face.lang, card.code, face.name, face.status]);
  if (caption.dataset.said === said) return;
  caption.dataset.said = said;
  caption.replaceChildren(el("span", { class: "lang", text: face.lang }), el("span", { class: "code", text: card.code }), " ",
    el("span", { class: "name", text: face.name }), badges(face.status));
}

function applyFilters() {
  const query = normalise($("#search").value);
  const faction = $("#faction").value, kind = $("#kind").value, lang = $("#lang").value, status = $("#status").value;
  let shown = 0;
  for (const tile of tiles.values()) {
    const card = byId.get(tile.dataset.card);
    const face = card && card.faces[tile.dataset.lang];
    const visible = face && (!query || card.search.includes(query)) && (!faction || card.faction === faction)
      && (!kind || card.kind === kind || card.look === kind) && (!lang || face.lang === lang)
      && (!status || face.status.includes(status));
    if (tile.hidden !== !visible) tile.hidden = !visible;
    if (visible) shown += 1;
  }
  const counted = `${shown} of ${tiles.size} faces`;
  if ($("#shown").textContent !== counted) $("#shown").textContent = counted;
}

// ── a card's page ──────────────────────────────────────────────────────────
let cardShown = null;

async function showCard(id) {
  const data = await getJSON(`/api/cards/${encodeURIComponent(id)}`).catch(() => null);
  if (!data) {
    $("#card-title").textContent = `No card ${id}`;
    $("#card-data").replaceChildren();
    $("#card-faces").replaceChildren();
    return;
  }
  cardShown = data;
  renderCard();
}

function renderCard() {
  const { card, faces } = cardShown;
  const first = Object.values(faces)[0];
  $("#card-title").textContent = `${card.code} ${first ? first.name : card.id}`;
  const faction = meta.factions.find((f) => f.id === card.faction);
  const rows = [
    ["Id", card.id], ["Faction", faction ? `${faction.names[meta.languages[0].code]} (${faction.code})` : card.faction], ["Kind", card.kind + (card.commander ? " · Commander" : "") + (card.terrain ? " · Terrain" : "")],
    ["Type", [card.type, ...card.traits].filter(Boolean).join(" · ") || "—"],
    ["Level", card.level], ["ATK", card.atk], ["DEF", card.def], ["Energy", card.energy], ["Copies", card.copies],
    ["Bonus", card.bonus.length ? card.bonus.map((b) => `${b.whose} ${b.amount > 0 ? "+" : ""}${b.amount} ${b.stat} (${b.when})`).join("; ") : "—"],
    ["Revised", card.revised || "—"], ["Defined at", card.where],
  ].filter(([, v]) => v !== null && v !== undefined);
  $("#card-data").replaceChildren(el("table", {},
    el("thead", {}, el("tr", {}, rows.map(([k]) => el("th", { text: k })))),
    el("tbody", {}, el("tr", {}, rows.map(([k, v]) => el("td", { class: k === "Defined at" || k === "Id" ? "where" : "", text: v }))))));
  const size = document.querySelector("input[name=size]:checked").value;
  const list = Object.values(faces);
  $("#card-faces").replaceChildren(...list.map((face) => faceFigure(card, face, size)));
  $("#card-details").replaceChildren(textsTable(list), artTable(list), changesList(list));
}

function faceFigure(card, face, size) {
  const width = meta.card ? meta.card.width_mm * (size === "zoom" ? 3 : 1) : 63;
  const picture = face.error
    ? el("div", { class: "broken", style: { width: `${width}mm` }, text: face.error.map((p) => `${p.where}: ${p.message}`).join("\n") })
    : el("img", { class: "face", src: face.pictures[size], alt: `${card.code} (${face.lang})`, style: { width: `${width}mm` }, "data-fingerprint": face.fingerprint });
  const warnings = [...face.warnings, ...face.problems];
  return el("figure", { class: "face-column", "data-lang": face.lang },
    el("figcaption", {}, el("strong", { text: `${langName(face.lang)} (${face.lang})` }), badges(face.status)),
    picture,
    warnings.length
      ? el("ul", { class: "warnings" }, warnings.map((w) => el("li", {}, el("span", { class: "where", text: w.where ? `${w.where} ` : "" }), `${w.code}: ${w.message}`)))
      : el("p", { class: "muted", text: face.drawn ? "No warnings." : "Not laid out yet." }));
}

function textsTable(faces) {
  const rows = [];
  for (const face of faces) {
    for (const t of face.texts) rows.push([face.lang, t]);
  }
  rows.sort((a, b) => faces[0].texts.findIndex((t) => t.key === a[1].key) - faces[0].texts.findIndex((t) => t.key === b[1].key));
  return el("div", {}, el("h3", { text: "Texts" }), el("table", { class: "texts" },
    el("thead", {}, el("tr", {}, ["Key", "Lang", "Where", "State", "Text", "English source"].map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map(([lang, t]) => el("tr", { "data-key": t.key, "data-lang": lang },
      el("td", { class: "where", text: t.key }), el("td", { text: lang }), el("td", { class: "where", text: t.where }),
      el("td", { class: `state-${t.state}`, text: t.state }), el("td", { text: t.text || "—" }),
      el("td", { class: "muted", text: t.state === "source" ? "" : t.english || "—" }))))));
}

function artTable(faces) {
  const rows = faces.map((face) => {
    const art = face.art;
    if (!art || !art.window) return [face.lang, "this kind of card has no art window", "", "", "", ""];
    if (!art.file) return [face.lang, "no picture: the illustration prints (art/<card-id>.png is picked up)", "", "", "", ""];
    return [face.lang, art.file, `${art.width} × ${art.height}`, art.dpi ? `${Math.round(art.dpi)} dpi` : "vector",
      `${art.fit}${art.cropped ? `, ${(art.cropped * 100).toFixed(1)} % cropped` : ""}`,
      art.problems.length ? art.problems.map((p) => `${p.code}: ${p.message}`).join("\n") : "ok"];
  });
  return el("div", {}, el("h3", { text: "Art preflight" }), el("table", { class: "art" },
    el("thead", {}, el("tr", {}, ["Lang", "File", "Pixels", "Prints at", "Fit", "Preflight"].map((h) => el("th", { text: h })))),
    el("tbody", {}, rows.map((row) => el("tr", {}, row.map((v) => el("td", { text: v })))))));
}

function changesList(faces) {
  if (!meta.since) return el("span");
  return el("div", { class: "change" }, el("h3", { text: `Since ${meta.since}` }), el("ul", {}, faces.map((face) => {
    const change = face.changes;
    if (!change) return el("li", { text: `${face.lang}: unchanged` });
    return el("li", {}, `${face.lang}: ${change.status}`, el("ul", {}, change.fields.map((f) => el("li", {}, `${f.field}${f.path ? ` (${f.path})` : ""}: `,
      el("del", { text: f.old === null ? "—" : JSON.stringify(f.old) }), " → ", el("ins", { text: f.new === null ? "—" : JSON.stringify(f.new) })))));
  })));
}

// ── the other parts ────────────────────────────────────────────────────────
async function showParts(lang, only) {
  const select = $("#parts-lang");
  fillSelect(select, meta.languages.map((l) => [l.code, `${l.name} (${l.code})`]));
  select.options[0].hidden = true;
  select.value = lang || select.value || meta.languages[0].code;
  const container = $("#parts");
  container.replaceChildren(...meta.parts.map((p) => el("div", { class: "part", id: `part-${p}`, "data-part": p }, el("h2", { text: p }), el("p", { class: "muted", text: "drawing…" }))));
  for (const part of meta.parts) await refreshPart(select.value, part);
  if (only) { const target = document.getElementById(`part-${only}`); if (target) target.scrollIntoView(); }
}

async function refreshPart(lang, part, flash = false) {
  const box = document.getElementById(`part-${part}`);
  if (!box || $("#parts-lang").value !== lang) return;
  const data = await getJSON(`/api/parts/${lang}/${part}`).catch(() => null);
  if (!data || !data.parts.length) return;
  const found = data.parts[0];
  const pages = el("div", { class: "pages" }, found.pages.map((page, i) => el("a", { href: page.picture, target: "_blank", rel: "noopener" },
    el("img", { src: page.picture, loading: "lazy", alt: `${found.title} page ${i + 1}`, width: 420, height: Math.round(420 * page.height_mm / page.width_mm) }))));
  const problems = [...found.warnings, ...(found.error || [])];
  const count = found.pages.length === 1 ? "1 page" : `${found.pages.length} pages`;
  box.replaceChildren(...[el("h2", { text: `${found.title} (${found.lang}) — ${count}` }),
    problems.length ? el("ul", { class: "warnings" }, problems.map((w) => el("li", { text: `${w.where ? w.where + ": " : ""}${w.code}: ${w.message}` }))) : null,
    pages].filter(Boolean));
  if (flash) { box.classList.add("updated"); setTimeout(() => box.classList.remove("updated"), 2500); }
}

// ── problems ───────────────────────────────────────────────────────────────
let problemsTimer = null;

function refreshProblems() {
  clearTimeout(problemsTimer);
  problemsTimer = setTimeout(async () => {
    problemsCache = await getJSON("/api/problems").catch(() => null);
    if (!problemsCache) return;
    $("#problem-count").textContent = problemsCache.problems.length || "";
    if (currentView() === "problems") renderProblems();
  }, 300);
}

function renderProblems() {
  const data = problemsCache;
  if (!data) return;
  const errors = data.problems.filter((p) => p.severity === "error").length;
  $("#problems-summary").textContent = `${errors} errors, ${data.problems.length - errors} warnings`
    + (data.pending.length ? ` (still working on: ${data.pending.join(", ")})` : "");
  $("#problems tbody").replaceChildren(...data.problems.map((p) => el("tr", { class: p.severity },
    el("td", { text: p.severity }), el("td", { text: p.source + (p.lang ? ` · ${p.lang}` : "") }),
    el("td", { class: "where" }, p.where, p.key ? el("div", { class: "muted", text: p.key }) : null), el("td", { text: p.code }), el("td", { text: p.message }),
    el("td", {}, p.link ? el("a", { href: p.link, text: p.card ? "card" : partTitle(p.part) }) : ""))));
}

function partTitle(part) {
  return { rulebook: "rulebook", mats: "mats", "score-sheet": "score sheet" }[part] || "page";
}

// ── views ──────────────────────────────────────────────────────────────────
function currentView() {
  const hash = location.hash || "#/";
  if (hash.startsWith("#/card/")) return "card";
  if (hash.startsWith("#/parts")) return "parts";
  if (hash.startsWith("#/problems")) return "problems";
  return "gallery";
}

let shownView = null;
const scrolled = {};  // view → where the page was scrolled to when it was left (the gallery is found as it was left)

async function route() {
  if (!meta) return;
  const view = currentView();
  if (view !== shownView) {
    if (shownView) scrolled[shownView] = window.scrollY;
    shownView = view;
    requestAnimationFrame(() => window.scrollTo(0, view === "gallery" ? scrolled.gallery || 0 : 0));
  }
  for (const name of ["gallery", "card", "parts", "problems"]) $(`#${name}-view`).hidden = true;
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("current", link.id === `nav-${view === "card" ? "gallery" : view}`);
  $("#data-error").hidden = !meta.error;
  if (meta.error && view !== "problems") return;  // the data error instead of the gallery, until it is fixed
  $(`#${view}-view`).hidden = false;
  const [path] = (location.hash || "#/").slice(2).split("?");
  const parts = path.split("/").map(decodeURIComponent);
  if (view === "card") await showCard(parts[1]);
  else if (view === "parts") await showParts(parts[1], parts[2]);
  else if (view === "problems") renderProblems();
}

// ── live ───────────────────────────────────────────────────────────────────
function listen() {
  const live = $("#live");
  const events = new EventSource("/api/events");
  events.onopen = () => {
    live.textContent = "● live";
    live.classList.remove("off");
    if (connectedOnce) loadAll();  // reconnected: whatever was missed is read again
    connectedOnce = true;
  };
  const ready = (handler) => (event) => { if (meta) handler(event); };  // nothing to update before the first load
  events.onerror = () => { live.textContent = "○ reconnecting"; live.classList.add("off"); };
  events.addEventListener("state", async (event) => {
    const wasBroken = Boolean(meta && meta.error);
    meta = JSON.parse(event.data);
    applyMeta();
    if (wasBroken && !meta.error) { setCards((await getJSON("/api/cards")).cards); }
    if (wasBroken || meta.error) await route();
    refreshProblems();
  });
  events.addEventListener("faces", ready((event) => {
    const data = JSON.parse(event.data);
    let shownChanged = false;
    for (const face of data.faces) {
      const card = byId.get(face.id);
      if (!card) continue;
      card.faces[face.lang] = face;
      const tile = tiles.get(`${face.id}/${face.lang}`);
      if (tile) updateTile(tile, card, face);
      if (cardShown && cardShown.card.id === face.id) shownChanged = true;
    }
    document.body.dataset.generation = data.generation;
    applyFilters();
    showProgress();
    refreshProblems();
    if (shownChanged && currentView() === "card") showCard(cardShown.card.id);
  }));
  events.addEventListener("cards", ready(async () => {
    setCards((await getJSON("/api/cards")).cards);
    if (currentView() === "card" && cardShown) showCard(cardShown.card.id);
  }));
  events.addEventListener("problems", ready(() => refreshProblems()));
  events.addEventListener("parts", ready((event) => {
    const data = JSON.parse(event.data);
    if (currentView() === "parts") refreshPart(data.lang, data.part, true);
    refreshProblems();
  }));
}

document.addEventListener("DOMContentLoaded", () => {
  listen();  // first: a page that waits for a part being drawn still hears what changes
  for (const id of ["search", "faction", "kind", "lang", "status"]) {
    $(`#${id}`).addEventListener("input", applyFilters);
    $(`#${id}`).addEventListener("change", applyFilters);  // a select changed by a script fires only this
  }
  $("#filters").addEventListener("submit", (event) => event.preventDefault());
  for (const radio of document.querySelectorAll("input[name=size]")) radio.addEventListener("change", () => cardShown && renderCard());
  $("#parts-lang").addEventListener("change", () => { location.hash = `#/parts/${$("#parts-lang").value}`; });
  window.addEventListener("hashchange", route);
  loadAll().catch((error) => { $("#progress").textContent = `cannot reach the workbench: ${error.message}`; });
});
