// A modal window that answers a question: the answer is read when the window closes.
//
// A dialog's "close" event comes a moment after it closes. A window opened again in that
// moment (Escape then K at once) must not take the earlier closing for its own answer, and the
// earlier opening must not take the new one's. Each opening answers once: an earlier one gets
// null at the next "close" event, and the latest one waits for a "close" event delivered while
// the window is really closed.

const openings = new WeakMap();

/** The answer of this opening of `dialog`: `answer()` when it closes, null if superseded. */
export function whenClosed(dialog, answer) {
  const mine = (openings.get(dialog) || 0) + 1;
  openings.set(dialog, mine);
  return new Promise((resolve) => {
    const onClose = () => {
      const latest = openings.get(dialog) === mine;
      if (latest && dialog.open) return;
      dialog.removeEventListener("close", onClose);
      resolve(latest ? answer() : null);
    };
    dialog.addEventListener("close", onClose);
  });
}
