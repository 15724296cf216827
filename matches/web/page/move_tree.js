// A game with its variations, as lichess keeps one: a move played at an earlier position starts
// a variation beside the moves played there before instead of cutting them off. Each node is a
// move and the moves played after it; a node's first child continues its line (the main line
// from the root), the others are variations. A line is named by its path: its moves from the
// start (the server's spelling, so that a move is the same text wherever it was played).

export class MoveTree {
  constructor(moves = []) {
    this.root = { move: null, children: [] };
    let node = this.root;
    for (const move of moves) {
      const child = { move, children: [] };
      node.children.push(child);
      node = child;
    }
  }

  // The node `path` leads to, or null when the tree has no such line.
  node(path) {
    let node = this.root;
    for (const move of path) {
      node = node.children.find((c) => c.move === move);
      if (!node) return null;
    }
    return node;
  }

  // `path` and the moves that continue it (each node's first child) to its end.
  lineThrough(path) {
    const line = path.slice();
    let node = this.node(path);
    while (node && node.children.length) {
      node = node.children[0];
      line.push(node.move);
    }
    return line;
  }

  mainline() {
    return this.lineThrough([]);
  }

  // `move` played after `path`: a new variation there unless it was played before (then its
  // line is taken up again). Returns the line through it.
  add(path, move) {
    const node = this.node(path);
    if (!node.children.some((c) => c.move === move)) node.children.push({ move, children: [] });
    return this.lineThrough([...path, move]);
  }

  // Takes away the last move of `path` and everything played after it (Undo); the next
  // variation there, if any, continues the line in its place.
  remove(path) {
    const parent = this.node(path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent) parent.children = parent.children.filter((c) => c.move !== last);
  }

  // Where the line `path` leaves the line it branched from: the ply of its last move that is not
  // its position's first continuation; -1 on the main line (whose moves all are). Undo takes a
  // variation back no further than there, so that no move of the line it left goes with it.
  branchPly(path) {
    let node = this.root, branch = -1;
    for (let i = 0; i < path.length && node; ++i) {
      if (node.children.length && node.children[0].move !== path[i]) branch = i;
      node = node.children.find((c) => c.move === path[i]);
    }
    return branch;
  }

  isMainline(path) {
    return this.branchPly(path) < 0;
  }

  hasVariations() {
    const walk = (node) => node.children.length > 1 || node.children.some(walk);
    return walk(this.root);
  }
}
