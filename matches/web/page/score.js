// Scores from one point of view. The server reports a search's score as the side to move's
// ("cp 35", "win 5", "loss 4": plies to the end); the page shows every score as Black's, LOA's
// first player, so that a number keeps its meaning from move to move, and proven results in
// words.

const SIDE = { b: "Black", w: "White" };

// {text, black: Black's share of the evaluation bar (0..1), proven: winner or null}
export function blackView(score, sideToMove) {
  const [kind, number] = String(score).split(" ");
  const n = Number(number);
  const other = sideToMove === "b" ? "w" : "b";
  if (kind === "win" || kind === "loss") {
    const winner = kind === "win" ? sideToMove : other;
    const moves = Math.ceil(n / 2);
    const text = n === 0 ? `${SIDE[winner]} has won` : `${SIDE[winner]} wins in ${moves} move${moves === 1 ? "" : "s"} (${n} pl${n === 1 ? "y" : "ies"})`;
    return { text, black: winner === "b" ? 1 : 0, proven: winner };
  }
  const value = sideToMove === "b" ? n : -n;
  // The bar: the score through a logistic curve (400 points: about 91% of the bar).
  return { text: `${value > 0 ? "+" : ""}${value}`, black: 1 / (1 + Math.pow(10, -value / 400)), proven: null };
}
