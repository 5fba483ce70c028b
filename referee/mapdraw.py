"""Draw a game's map as SVG from a neutral description; knows no game.

A picture is two parts.  The `Board` is what never changes in a game: the
spaces with their drawing positions, names and kinds, the links between them
(roads, sea lanes), and the legend of space, link and piece kinds.  A
`Position` is what a moment of a game adds: the sides with their colours,
pieces on spaces, who controls a space, markers (a bridge built, brigands, a
siege) and lines of status text.  Each engine builds both from its ruleset
and a state in the ``picture`` module beside its ``view``; this module only
draws.

The SVG is written as text with every name escaped.  Everything a position
draws goes into named slots (three layers per space, one for links that
come and go, one per status row), so a replay page can hold the board once
and swap slot contents step by step (`Canvas.frame` and `Canvas.slots`),
while `render_svg` fills the slots for one standalone picture.
"""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

# Colours told apart by colour-blind eyes too (Okabe & Ito), in seat order.
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
                "#7f6000", "#000000")
NEUTRAL = "#7a7a7a"
SEA = "#dcebf5"
PANEL = "#faf7f0"
INK = "#2b2b2b"

SHAPES = ("circle", "box", "hexagon")
PIECE_SHAPES = ("square", "disc", "triangle", "diamond", "pawn", "bar")


@dataclass(frozen=True)
class SpaceKind:
    """How one kind of space is drawn and named in the legend."""

    id: str
    label: str
    shape: str = "circle"        # one of SHAPES
    fill: str = "#efe6cf"
    stroke: str = "#6b5a3a"
    size: float = 12             # radius, or half the side of a box


@dataclass(frozen=True)
class LinkKind:
    id: str
    label: str
    colour: str = "#8a6d3b"
    width: float = 2
    dash: str = ""               # an SVG dash pattern ("6 4"); empty: solid


@dataclass(frozen=True)
class PieceKind:
    id: str
    label: str
    shape: str = "square"        # one of PIECE_SHAPES


@dataclass(frozen=True)
class Space:
    id: str
    label: str
    x: float
    y: float
    kind: str
    note: str = ""               # a second, smaller line: terrain, port, tax ...


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: str


@dataclass(frozen=True)
class Board:
    """The unchanging part of a map picture."""

    title: str
    spaces: tuple[Space, ...]
    links: tuple[Link, ...] = ()
    space_kinds: tuple[SpaceKind, ...] = ()
    link_kinds: tuple[LinkKind, ...] = ()
    piece_kinds: tuple[PieceKind, ...] = ()
    scale: float = 1.0           # ruleset positions -> picture units (pieces keep their size)


@dataclass(frozen=True)
class Side:
    id: str
    label: str
    colour: str


@dataclass(frozen=True)
class Piece:
    """`count` pieces of one kind of one side (empty side: neutral) on a space."""

    space: str
    side: str
    kind: str
    count: int = 1
    detail: str = ""             # shown on hover: names of leaders, figures ...


@dataclass(frozen=True)
class Marker:
    """A small tag beside a space: "bridge", "brigands", "razed 2"."""

    space: str
    text: str
    side: str = ""


@dataclass
class Position:
    """What one moment of a game puts on the board."""

    sides: list[Side] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)
    control: dict[str, str] = field(default_factory=dict)   # space id -> side id
    markers: list[Marker] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)         # links that come and go
    status: list[str] = field(default_factory=list)         # lines of text under the legend


class PictureError(ValueError):
    """A board or position that cannot be drawn (an unknown space or kind)."""


def seat_sides(seats: Sequence[str], labels: dict[str, str] | None = None) -> list[Side]:
    """One side per seat, coloured in seat order."""
    labels = labels or {}
    return [Side(seat, labels.get(seat, seat), SEAT_COLOURS[i % len(SEAT_COLOURS)])
            for i, seat in enumerate(seats)]


def counted(n: int, word: str, many: str = "") -> str:
    """'1 card', '3 cards', '2 armies' (many='armies'): for status lines."""
    return f"1 {word}" if n == 1 else f"{n} {many or word + 's'}"


def circle_positions(count: int, radius: float = 300) -> list[tuple[float, float]]:
    """Drawing positions on a circle, for spaces a ruleset gives none."""
    return [(radius + radius * math.sin(2 * math.pi * i / count),
             radius - radius * math.cos(2 * math.pi * i / count)) for i in range(count)]


# -- the canvas -------------------------------------------------------------------------------

MARGIN = 70
LEGEND_WIDTH = 300
TITLE_HEIGHT = 34
ROW = 16                         # height of one legend or status row
STATUS_CHARS = 46                # characters per status row before it wraps
PIECE = 13                       # side of a piece icon
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
# Text styles by class, so that each of thousands of labels names one word.  A halo class
# comes after the text's own class: it wins where both set the fill.
STYLE = " ".join(f"text.{name} {{{rules}}}" for name, rules in {
    "title": "font-size:17px;font-weight:bold",
    "heading": "font-size:12px;font-weight:bold",
    "row": "font-size:10.5px",
    "name": "font-size:10.5px;font-weight:bold;text-anchor:middle",
    "note": "font-size:8px;text-anchor:middle;fill:#4a4a4a",
    "marker": "font-size:8.5px",
    "count": "font-size:9px;font-weight:bold;text-anchor:middle;fill:#ffffff",
    "halo": "fill:none;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round;opacity:0.85",
    "count-halo": "fill:none;stroke:#1a1a1a;stroke-width:3px;stroke-linejoin:round",
}.items())
LINKS_SLOT = "agon-links"
LAYERS = "csm"                   # of a space, bottom to top: control ring, pieces, markers


def space_slot(index: int, layer: str = "s") -> str:
    """The slot of one space's layer: "c" its control ring, "s" its pieces, "m" its markers."""
    return f"agon-{layer}{index}"


def status_slot(row: int) -> str:
    return f"agon-r{row}"


@functools.lru_cache(maxsize=4096)
def _wrapped(line: str) -> tuple[str, ...]:
    return tuple(textwrap.wrap(line, STATUS_CHARS, subsequent_indent="  ")) or ("",)


def status_rows(position: Position) -> list[str]:
    """The position's side legend and status lines, wrapped to the legend's width."""
    rows = [side.label for side in position.sides]
    for line in position.status:
        rows += _wrapped(line)
    return rows


class Canvas:
    """One board, checked once, drawn as a whole or slot by slot.

    A replay draws thousands of positions of one board: what a space shows
    is kept by its contents, so a space that did not change costs a lookup.
    """

    def __init__(self, board: Board) -> None:
        if not board.spaces:
            raise PictureError("a map needs at least one space")
        self.board = board
        self.kinds = {k.id: k for k in board.space_kinds}
        self.link_kinds = {k.id: k for k in board.link_kinds}
        self.piece_kinds = {k.id: k for k in board.piece_kinds}
        self.index = {s.id: i for i, s in enumerate(board.spaces)}
        for space in board.spaces:
            kind = self.kinds.get(space.kind)
            if kind is None:
                raise PictureError(f"space {space.id!r} is of no kind in the legend: "
                                   f"{space.kind!r}")
        for link in board.links:
            self._check_link(link)
        xs = [s.x * board.scale for s in board.spaces]
        ys = [s.y * board.scale for s in board.spaces]
        self.dx = MARGIN - min(xs)
        self.dy = TITLE_HEIGHT + MARGIN - min(ys)
        self.map_width = max(xs) - min(xs) + 2 * MARGIN
        self.map_height = max(ys) - min(ys) + 2 * MARGIN + TITLE_HEIGHT
        entries = len(board.space_kinds) + len(board.link_kinds) + len(board.piece_kinds)
        self.status_top = TITLE_HEIGHT + 10 + (entries + 3) * ROW   # below legend and heading
        self._space_slots = {space_slot(i, layer): space.id for layer in LAYERS
                             for i, space in enumerate(board.spaces)}
        self._drawn: dict[tuple[Any, ...], str] = {}

    def at(self, space: Space) -> tuple[float, float]:
        return space.x * self.board.scale + self.dx, space.y * self.board.scale + self.dy

    @property
    def width(self) -> float:
        return self.map_width + LEGEND_WIDTH

    def height(self, rows: int) -> float:
        return max(self.map_height, self.status_top + rows * ROW + MARGIN / 2)

    # -- what callers use

    def svg(self, position: Position | None = None) -> str:
        """One standalone picture: the board, and the position when given."""
        if position is None:
            return self.document({}, 0)
        return self.document(self.slots(position), len(status_rows(position)))

    def frame(self, rows: int) -> str:
        """The board with every slot empty and room for `rows` status rows."""
        return self.document({}, rows)

    def slots(self, position: Position, rows: int | None = None) -> dict[str, str]:
        """Slot id -> the SVG inside it, for every slot (empty ones too).

        `rows` is how many status rows the frame holds (default: this position's).
        """
        colours = {side.id: side.colour for side in position.sides}
        control: dict[int, str] = {}
        for space_id, side in position.control.items():
            control[self._space(space_id, "control")] = self._side(side, colours)
        stacks: dict[int, list[Piece]] = {}
        for piece in position.pieces:
            if piece.kind not in self.piece_kinds:
                raise PictureError(f"no piece kind {piece.kind!r} in the board's legend")
            self._side(piece.side, colours)
            stacks.setdefault(self._space(piece.space, "a piece"), []).append(piece)
        tags: dict[int, list[Marker]] = {}
        for marker in position.markers:
            self._side(marker.side, colours)
            tags.setdefault(self._space(marker.space, "a marker"), []).append(marker)
        palette = tuple(sorted(colours.items()))
        out = dict.fromkeys(self._space_slots, "")
        for layer, contents in (("c", control), ("s", stacks), ("m", tags)):
            for i, content in contents.items():
                out[space_slot(i, layer)] = self._layer(
                    i, layer, content if layer == "c" else tuple(content), palette)
        for link in position.links:
            self._check_link(link)
        out[LINKS_SLOT] = "".join(self._link(link) for link in position.links)
        texts = status_rows(position)
        total = len(texts) if rows is None else rows
        if len(texts) > total:
            raise PictureError(f"{len(texts)} status rows do not fit in {total}")
        for row in range(total):
            out[status_slot(row)] = self._status_row(row, texts, position.sides)
        return out

    def document(self, fragments: dict[str, str], rows: int) -> str:
        """The whole SVG, its slots filled from `fragments` (missing: empty)."""
        width, height = self.width, self.height(rows)
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" font-family={quoteattr(FONT)} fill="{INK}">',
            f"<title>{escape(self.board.title)}</title>",
            f"<style>{STYLE}</style>",
            f'<rect width="{self.map_width:.0f}" height="{height:.0f}" fill="{SEA}"/>',
            f'<rect x="{self.map_width:.0f}" width="{LEGEND_WIDTH}" height="{height:.0f}" '
            f'fill="{PANEL}" stroke="#c9bfa8"/>',
            _text(16, 24, self.board.title, "title"),
            '<g id="agon-board-links">', *(self._link(link) for link in self.board.links), "</g>",
            _slot(LINKS_SLOT, fragments),
            '<g id="agon-spaces">', *(self._space_shape(s) for s in self.board.spaces), "</g>",
            *(_slot(slot, fragments, space) for slot, space in self._space_slots.items()),
            self._legend(),
            *(_slot(status_slot(row), fragments) for row in range(rows)),
            "</svg>",
        ]
        return "\n".join(parts) + "\n"

    # -- checks

    def _space(self, space_id: str, what: str) -> int:
        if space_id not in self.index:
            raise PictureError(f"{what} names no space of the board: {space_id!r}")
        return self.index[space_id]

    @staticmethod
    def _side(side: str, colours: dict[str, str]) -> str:
        if side and side not in colours:
            raise PictureError(f"no side {side!r} in the position")
        return side

    def _check_link(self, link: Link) -> None:
        self._space(link.a, "a link")
        self._space(link.b, "a link")
        if link.kind not in self.link_kinds:
            raise PictureError(f"no link kind {link.kind!r} in the board's legend")

    # -- drawing

    def _layer(self, i: int, layer: str, content: Any,
               palette: tuple[tuple[str, str], ...]) -> str:
        """One layer of space `i`: its control ring (a side), pieces or markers (tuples)."""
        key = (i, layer, content, palette)
        if key not in self._drawn:
            colours = dict(palette)
            space = self.board.spaces[i]
            if layer == "c":
                self._drawn[key] = self._control_ring(space, content, colours[content])
            elif layer == "s":
                self._drawn[key] = self._stack(space, content, colours)
            else:
                self._drawn[key] = self._markers(space, content, colours)
        return self._drawn[key]

    def _space_shape(self, space: Space) -> str:
        kind = self.kinds[space.kind]
        x, y = self.at(space)
        r = kind.size
        title = escape(space.label) + (f" ({escape(space.note)})" if space.note else "")
        parts = [f'<g class="space" data-space={quoteattr(space.id)}><title>{title}</title>',
                 _shape(kind.shape, x, y, r, kind.fill, kind.stroke),
                 _text(x, y - r - 7, space.label, "name", halo="halo")]
        if space.note:
            parts.append(_text(x, y + r + 10, space.note, "note", halo="halo"))
        parts.append("</g>")
        return "".join(parts)

    def _link(self, link: Link) -> str:
        kind = self.link_kinds[link.kind]
        a, b = self.board.spaces[self.index[link.a]], self.board.spaces[self.index[link.b]]
        (x1, y1), (x2, y2) = self.at(a), self.at(b)
        dash = f' stroke-dasharray="{kind.dash}"' if kind.dash else ""
        return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{kind.colour}" stroke-width="{kind.width}"{dash} '
                f'stroke-linecap="round"/>')

    def _control_ring(self, space: Space, side: str, colour: str) -> str:
        kind = self.kinds[space.kind]
        x, y = self.at(space)
        ring = _shape(kind.shape, x, y, kind.size + 3.5, "none", colour, width=4)
        return f'<g class="control" data-side={quoteattr(side)}>{ring}</g>'

    def _stack(self, space: Space, stack: tuple[Piece, ...], colours: dict[str, str]) -> str:
        """The pieces on one space: one row per side, below the space and its note."""
        x, y = self.at(space)
        top = y + self.kinds[space.kind].size + (14 if space.note else 4) + PIECE / 2
        rows: dict[str, list[Piece]] = {}
        for piece in stack:
            rows.setdefault(piece.side, []).append(piece)
        parts = []
        step = PIECE + 4
        for r, (side, row) in enumerate(rows.items()):
            cy = top + r * (PIECE + 3)
            left = x - step * (len(row) - 1) / 2
            for k, piece in enumerate(row):
                cx = left + k * step
                kind = self.piece_kinds[piece.kind]
                tip = f"{side or 'neutral'}: {piece.count} {kind.label}"
                if piece.detail:
                    tip += f" ({piece.detail})"
                number = (_text(cx, cy + 3.5, str(piece.count), "count", halo="count-halo")
                          if piece.count > 1 else "")
                parts.append(f'<g class="piece" data-side={quoteattr(side)} '
                             f'data-kind={quoteattr(piece.kind)} data-count="{piece.count}">'
                             f"<title>{escape(tip)}</title>"
                             f"{_piece_icon(kind.shape, cx, cy, colours.get(side, NEUTRAL))}"
                             f"{number}</g>")
        return "".join(parts)

    def _markers(self, space: Space, tags: tuple[Marker, ...], colours: dict[str, str]) -> str:
        """Small tags right of the space, one under the other."""
        x, y = self.at(space)
        r = self.kinds[space.kind].size
        parts = []
        for k, tag in enumerate(tags):
            width = 6 + 5.2 * len(tag.text)
            tx, ty = x + r + 4, y + 1 + k * 13
            colour = colours.get(tag.side, "#5a5a5a")
            parts.append(f'<g class="marker" data-side={quoteattr(tag.side)}>'
                         f'<rect x="{tx:.1f}" y="{ty - 9:.1f}" width="{width:.1f}" height="12" '
                         f'rx="3" fill="#ffffff" stroke="{colour}" stroke-width="1.5"/>'
                         + _text(tx + 3, ty, tag.text, "marker", fill=colour) + "</g>")
        return "".join(parts)

    def _legend(self) -> str:
        board = self.board
        x = self.map_width + 16
        y = TITLE_HEIGHT + 10
        samples = [*((_shape(k.shape, x + 8, 0, 6, k.fill, k.stroke), k.label)
                     for k in board.space_kinds),
                   *((_link_sample(x, k), k.label) for k in board.link_kinds),
                   *((_piece_icon(k.shape, x + 8, 0, "#9a9a9a"), k.label)
                     for k in board.piece_kinds)]
        parts = ['<g id="agon-legend">', _text(x, y, "Legend", "heading")]
        for n, (sample, label) in enumerate(samples, 1):
            row_y = y + n * ROW
            parts.append(f'<g transform="translate(0 {row_y:.1f})">{sample}</g>'
                         + _text(x + 24, row_y + 4, label, "row"))
        parts.append(_text(x, self.status_top - ROW + 4, "Players and position", "heading"))
        parts.append("</g>")
        return "".join(parts)

    def _status_row(self, row: int, texts: list[str], sides: list[Side]) -> str:
        x, y = self.map_width + 16, self.status_top + row * ROW
        if row < len(sides):   # the first rows name the sides beside their colour
            return (f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="12" height="12" '
                    f'fill="{sides[row].colour}" stroke="#1a1a1a"/>'
                    + _text(x + 18, y + 1, sides[row].label, "row"))
        return _text(x, y + 1, texts[row] if row < len(texts) else "", "row")


def frame_svg(board: Board, rows: int) -> str:
    """The board with every slot empty, `rows` status rows tall."""
    return Canvas(board).frame(rows)


def render_svg(board: Board, position: Position | None = None) -> str:
    """One standalone picture: the board, and the position when given."""
    return Canvas(board).svg(position)


# -- pieces of SVG ------------------------------------------------------------------------------

def _slot(slot_id: str, fragments: dict[str, str], space: str = "") -> str:
    named = f" data-space={quoteattr(space)}" if space else ""
    return f'<g id="{slot_id}"{named}>{fragments.get(slot_id, "")}</g>'


def _text(x: float, y: float, text: str, style: str, *, fill: str = "", halo: str = "") -> str:
    """A line of text in a STYLE class; `halo`: a class drawn under it so it reads on anything."""
    body = escape(text)
    colour = f' fill="{fill}"' if fill else ""
    under = f'<text class="{style} {halo}" x="{x:.1f}" y="{y:.1f}">{body}</text>' if halo else ""
    return f'{under}<text class="{style}" x="{x:.1f}" y="{y:.1f}"{colour}>{body}</text>'


def _shape(shape: str, x: float, y: float, r: float, fill: str, stroke: str,
           width: float = 1.5) -> str:
    paint = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
    if shape == "box":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                f'rx="3" {paint}/>')
    if shape == "hexagon":
        points = " ".join(f"{x + r * math.cos(math.pi / 3 * k):.1f},"
                          f"{y + r * math.sin(math.pi / 3 * k):.1f}" for k in range(6))
        return f'<polygon points="{points}" {paint}/>'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'
    raise PictureError(f"unknown shape {shape!r} (known: {', '.join(SHAPES)})")




def _piece_icon(shape: str, x: float, y: float, fill: str) -> str:
    h = PIECE / 2
    paint = f'fill="{fill}" stroke="#1a1a1a" stroke-width="1"'
    if shape == "square":
        return f'<rect x="{x - h:.1f}" y="{y - h:.1f}" width="{PIECE}" height="{PIECE}" {paint}/>'
    if shape == "disc":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{h:.1f}" {paint}/>'
    if shape == "triangle":
        return (f'<polygon points="{x:.1f},{y - h - 1:.1f} {x + h + 1:.1f},{y + h:.1f} '
                f'{x - h - 1:.1f},{y + h:.1f}" {paint}/>')
    if shape == "diamond":
        return (f'<polygon points="{x:.1f},{y - h - 1:.1f} {x + h + 1:.1f},{y:.1f} '
                f'{x:.1f},{y + h + 1:.1f} {x - h - 1:.1f},{y:.1f}" {paint}/>')
    if shape == "pawn":
        return (f'<path d="M{x - h:.1f},{y + h:.1f} L{x - 2.5:.1f},{y - 1:.1f} '
                f'A4,4 0 1 1 {x + 2.5:.1f},{y - 1:.1f} L{x + h:.1f},{y + h:.1f} Z" {paint}/>')
    if shape == "bar":
        return (f'<rect x="{x - h - 2:.1f}" y="{y - h + 2:.1f}" width="{PIECE + 4}" '
                f'height="{PIECE - 4}" rx="4" {paint}/>')
    raise PictureError(f"unknown piece shape {shape!r} (known: {', '.join(PIECE_SHAPES)})")




def _link_sample(x: float, kind: LinkKind) -> str:
    dash = f' stroke-dasharray="{kind.dash}"' if kind.dash else ""
    return (f'<line x1="{x:.1f}" y1="0" x2="{x + 18:.1f}" y2="0" '
            f'stroke="{kind.colour}" stroke-width="{kind.width}"{dash}/>')
