// Translations: t(key, params), lang(), setLang(code), loadStrings(game), onLangChange(callback).
//
// String files are ES modules `export default { "key": "text with {param}" }`: js/i18n/${lang}.js holds the
// shared strings and L.A.M.A.'s; js/i18n/${game}.${lang}.js a game's own (optional). English is always loaded
// underneath, so a key missing from Korean shows in English rather than as its key.

const LANGS = ["en", "ko"];
const STORAGE_KEY = "laro.lang";
let current = null;
let strings = {};
let fallback = {};
let loadedGames = [];
const listeners = new Set();

function detect() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(stored)) return stored;
  } catch {
    /* storage may be off */
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

/** The current language: "en" or "ko". */
export function lang() {
  if (current === null) current = detect();
  return current;
}

/** The languages the interface speaks, each with its own name. */
export function languages() {
  return [
    { code: "en", name: "English" },
    { code: "ko", name: "한국어" },
  ];
}

async function importStrings(path) {
  try {
    const module = await import(path);
    return module.default || {};
  } catch {
    return {};
  }
}

/**
 * Load the shared strings and those of `game` (a name, a list of names, or nothing) in the current language.
 * A missing game file is harmless.
 */
export async function loadStrings(game) {
  const games = game == null ? [] : Array.isArray(game) ? game : [game];
  loadedGames = games;
  const code = lang();
  const files = (language) => [`./i18n/${language}.js`, ...games.map((name) => `./i18n/${name}.${language}.js`)];
  const merge = async (language) => Object.assign({}, ...(await Promise.all(files(language).map(importStrings))));
  const [english, chosen] = await Promise.all([merge("en"), code === "en" ? null : merge(code)]);
  fallback = english;
  strings = chosen || english;
  document.documentElement.lang = code;
  return strings;
}

/** Switch the language (stored for every page), reload the strings, then tell the listeners. */
export async function setLang(code) {
  if (!LANGS.includes(code)) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    /* storage may be off */
  }
  await loadStrings(loadedGames);
  for (const listener of listeners) listener(code);
}

/** Call `callback(code)` after every language switch; returns a function that stops it. */
export function onLangChange(callback) {
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/** Whether a string exists for `key`. */
export function has(key) {
  return key in strings || key in fallback;
}

/** A game's title in the page's language, from its name ("lama"); a game installed with no strings in this
 * language is called by the `title` the server gives (or by its name). */
export function titleOf(name, title = name) {
  const key = `game.${name}.title`;
  return has(key) ? t(key) : title;
}

/** The text of `key` with `{name}` replaced by `params.name`; the key itself when there is no such string. In
 * Korean a particle written for both endings, as in "{name}이(가)", is chosen from the word before it. */
export function t(key, params = {}) {
  // "1 card": a language's own form for one, or the fallback's when the language has no such string at all
  // (Korean's "{n}장" needs none, and English's "1 card" must not stand in for it)
  const one = `${key}.one`;
  if (params.n === 1 && (one in strings || (!(key in strings) && one in fallback))) key = one;
  const text = key in strings ? strings[key] : key in fallback ? fallback[key] : key;
  if (typeof text === "function") return text(params);
  const filled = String(text).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  return current === "ko" ? particles(filled) : filled;
}

// a particle pair: [after a final consonant, after a vowel]
const PAIRS = { "을(를)": ["을", "를"], "를(을)": ["을", "를"], "이(가)": ["이", "가"], "가(이)": ["이", "가"], "은(는)": ["은", "는"], "는(은)": ["은", "는"], "과(와)": ["과", "와"], "와(과)": ["과", "와"], "으로(로)": ["으로", "로"], "(으)로": ["으로", "로"] };
const CONSONANT_DIGITS = "013678"; // 영 일 삼 육 칠 팔 end in a consonant; 이 사 오 구 do not
const CONSONANT_LETTERS = "lmnr"; // as Latin words are read aloud (엘, 엠, 엔, 알)

/** How a word ends when read: a final consonant (true), a vowel (false); its last ㄹ matters for (으)로. */
function ending(word) {
  const letters = word.replace(/[\s)\]»”"'’.…]+$/u, "");
  const last = letters.slice(-1);
  const code = last.charCodeAt(0) - 0xac00;
  if (code >= 0 && code < 11172) return { consonant: code % 28 !== 0, rieul: code % 28 === 8 };
  if (/\d/.test(last)) return { consonant: CONSONANT_DIGITS.includes(last), rieul: "178".includes(last) };
  return { consonant: CONSONANT_LETTERS.includes(last.toLowerCase()), rieul: "lr".includes(last.toLowerCase()) };
}

/** "kamara을(를)" → "kamara를", "봇 4이(가)" → "봇 4가", "hagdan(계단)을(를)" → "hagdan(계단)을".
 * @example particles("봇 4이(가) 이겼습니다") === "봇 4가 이겼습니다" */
export function particles(text) {
  return text.replace(/(\S+?)(\(으\)로|으로\(로\)|[을를이가은는과와]\([을를이가은는과와]\))/gu, (whole, word, pair) => {
    const [consonant, vowel] = PAIRS[pair] || [null, null];
    if (!consonant) return whole;
    const end = ending(word);
    const chosen = pair.endsWith("로") ? (end.consonant && !end.rieul ? consonant : vowel) : end.consonant ? consonant : vowel;
    return word + chosen;
  });
}

/** A language switch (a <select>) that calls setLang. */
export function languageSwitch() {
  const select = document.createElement("select");
  select.className = "lang-switch";
  select.setAttribute("aria-label", "Language / 언어");
  select.dataset.testid = "lang-switch";
  for (const { code, name } of languages()) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang();
  select.addEventListener("change", () => setLang(select.value));
  const stop = onLangChange((code) => {
    if (!select.isConnected) stop(); // a page redrawn with a new switch
    else select.value = code;
  });
  return select;
}
