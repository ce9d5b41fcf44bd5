// Things that travel across the page: a card from a hand to the pile, a matched card to its owner. Short, never
// in the way of a click (the flying copy takes no pointer and is hidden from screen readers), ended at once by
// the next state, and none at all under prefers-reduced-motion.
//
//   const flights = new Flights();
//   flights.fly(node, fromElement, toElement, {duration, from: 0.6}) — `node` (a copy of what travels) flies
//                                                                     from the middle of one to the other's
//   flights.land()                                                  — every flight under way ends now

const STILL = window.matchMedia("(prefers-reduced-motion: reduce)");

export const FLIGHT_MS = 300;

export class Flights {
  constructor() {
    this.under = new Set();
  }

  /** Fly `node` from `from` to `to` (elements); returns the Animation, or null when nothing moves. */
  fly(node, from, to, { duration = FLIGHT_MS, scale = 0.6 } = {}) {
    if (STILL.matches || !from || !to) return null;
    const start = from.getBoundingClientRect();
    const end = to.getBoundingClientRect();
    if (!start.width || !end.width) return null;
    node.classList.add("flying");
    node.setAttribute("aria-hidden", "true");
    const x = start.left + start.width / 2;
    const y = start.top + start.height / 2;
    Object.assign(node.style, { left: `${x}px`, top: `${y}px` });
    document.body.append(node);
    const dx = end.left + end.width / 2 - x;
    const dy = end.top + end.height / 2 - y;
    const motion = node.animate(
      [
        { transform: `translate(-50%, -50%) scale(${scale})`, opacity: 0.9 },
        { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%)) scale(1)`, opacity: 1 },
      ],
      { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
    this.under.add(motion);
    motion.onfinish = motion.oncancel = () => {
      this.under.delete(motion);
      node.remove();
    };
    return motion;
  }

  land() {
    for (const motion of [...this.under]) motion.finish();
  }
}
