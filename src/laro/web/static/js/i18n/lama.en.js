// L.A.M.A.'s strings are among the shared ones in en.js; the Party Edition's are here.
export default {
  "option.lama.edition": "Edition",
  "option.lama.edition.help": "The classic game, or the Party Edition with plus cards, the pink llama and pink tokens.",
  "option.lama.edition.classic": "Classic",
  "option.lama.edition.party": "Party Edition",
  "game.lama.party.title": "L.A.M.A. Party Edition",
  "lama.party_edition": "Party Edition",
  "lama.party_hint": "A plus card (3+): play again at once · the pink llama goes on any card, then a llama or a 1",
  "lama.card.plus": "{n} plus",
  "lama.card.pink": "Pink llama",
  "lama.tokens_label_party": "{pink} pink, {black} black and {white} white tokens, value {points}",
  "lama.prompt_again": "You played {card}, a plus card: take another turn.",
  "lama.prompt_wait_again": "{name} played {card}, a plus card, and takes another turn…",
  "lama.log.play_plus": "plays a {card} and takes another turn",
  "lama.log.play_pink": "plays the pink llama",
  "rules.party_tab": "Party Edition",
};
