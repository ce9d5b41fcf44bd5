// L.A.M.A.'s strings are among the shared ones in ko.js; the Party Edition's are here.
export default {
  "option.lama.edition": "판",
  "option.lama.edition.help": "기본 게임, 또는 플러스 카드·분홍 라마·분홍 토큰이 있는 파티 에디션.",
  "option.lama.edition.classic": "기본",
  "option.lama.edition.party": "파티 에디션",
  "game.lama.party.title": "라마 파티 에디션",
  "lama.party_edition": "파티 에디션",
  "lama.party_hint": "플러스 카드(3+)를 내면 곧바로 한 번 더 · 분홍 라마는 어떤 카드 위에도, 그 위에는 라마나 1",
  "lama.card.plus": "{n} 플러스",
  "lama.card.pink": "분홍 라마",
  "lama.tokens_label_party": "분홍 {pink}개, 검정 {black}개, 하양 {white}개: {points}점",
  "lama.prompt_again": "플러스 카드 {card}를 냈으니 한 번 더 하세요.",
  "lama.prompt_wait_again": "{name}: 플러스 카드 {card}를 내고 한 번 더…",
  "lama.log.play_plus": "{card}를 내고 한 번 더 함",
  "lama.log.play_pink": "분홍 라마를 냄",
  "rules.party_tab": "파티 에디션",
};
