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
draws goes into named slots (one group per space, one for links that come
and go, one per status row), so a replay page can hold the board once and
swap slot contents step by step (`frame_svg` + `slot_fragments`), while
`render_svg` fills the slots for one standalone picture.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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


def circle_positions(count: int, radius: float = 300) -> list[tuple[float, float]]:
    """Drawing positions on a circle, for spaces a ruleset gives none."""
    return [(radius + radius * math.sin(2 * math.pi * i / count),
             radius - radius * math.cos(2 * math.pi * i / count)) for i in range(count)]


# -- geometry ---------------------------------------------------------------------------------

MARGIN = 70
LEGEND_WIDTH = 300
TITLE_HEIGHT = 34
ROW = 16                         # height of one legend or status row
STATUS_CHARS = 46                # characters per status row before it wraps
PIECE = 13                       # side of a piece icon


@dataclass(frozen=True)
class Layout:
    """Where the board's parts go on the canvas."""

    board: Board
    dx: float
    dy: float
    map_width: float
    map_height: float
    legend_rows: int

    @classmethod
    def of(cls, board: Board) -> Layout:
        if not board.spaces:
            raise PictureError("a map needs at least one space")
        xs = [s.x * board.scale for s in board.spaces]
        ys = [s.y * board.scale for s in board.spaces]
        legend_rows = len(board.space_kinds) + len(board.link_kinds) + len(board.piece_kinds)
        return cls(board, MARGIN - min(xs), TITLE_HEIGHT + MARGIN - min(ys),
                   max(xs) - min(xs) + 2 * MARGIN, max(ys) - min(ys) + 2 * MARGIN + TITLE_HEIGHT,
                   legend_rows)

    def at(self, space: Space) -> tuple[float, float]:
        return space.x * self.board.scale + self.dx, space.y * self.board.scale + self.dy

    @property
    def width(self) -> float:
        return self.map_width + LEGEND_WIDTH

    def height(self, status_rows: int) -> float:
        return max(self.map_height, self.status_top + status_rows * ROW + MARGIN / 2)

    @property
    def status_top(self) -> float:
        """Where the first status row goes: below the legend and a heading."""
        return TITLE_HEIGHT + 10 + (self.legend_rows + 3) * ROW


# -- slots: the parts a position fills ----------------------------------------------------------

def space_slot(index: int) -> str:
    return f"agon-s{index}"


def status_slot(row: int) -> str:
    return f"agon-r{row}"


LINKS_SLOT = "agon-links"


def status_rows(position: Position) -> list[str]:
    """The position's side legend and status lines, wrapped to the legend's width."""
    rows = [side.label for side in position.sides]
    for line in position.status:
        rows += textwrap.wrap(line, STATUS_CHARS, subsequent_indent="  ") or [""]
    return rows


def slot_fragments(board: Board, position: Position, rows: int | None = None) -> dict[str, str]:
    """Slot id -> the SVG inside it, for every slot of `board` (empty ones too).

    `rows` is how many status rows the frame holds (default: this position's).
    """
    layout = Layout.of(board)
    spaces = {s.id: (i, s) for i, s in enumerate(board.spaces)}
    colours = {side.id: side.colour for side in position.sides}
    kinds = {k.id: k for k in board.space_kinds}
    pieces = {k.id: k for k in board.piece_kinds}
    link_kinds = {k.id: k for k in board.link_kinds}

    def space_of(space_id: str, what: str) -> tuple[int, Space]:
        if space_id not in spaces:
            raise PictureError(f"{what} names no space of the board: {space_id!r}")
        return spaces[space_id]

    def colour(side: str) -> str:
        if side and side not in colours:
            raise PictureError(f"no side {side!r} in the position")
        return colours.get(side, NEUTRAL)

    per_space: dict[int, list[str]] = {i: [] for i in range(len(board.spaces))}
    for space_id, side in sorted(position.control.items()):
        i, space = space_of(space_id, "control")
        per_space[i].append(_control_ring(layout, space, kinds, colour(side), side))
    by_space: dict[int, list[Piece]] = {}
    for piece in position.pieces:
        if piece.kind not in pieces:
            raise PictureError(f"no piece kind {piece.kind!r} in the board's legend")
        colour(piece.side)
        by_space.setdefault(space_of(piece.space, "a piece")[0], []).append(piece)
    for i, stack in by_space.items():
        per_space[i].append(_stack(layout, board.spaces[i], kinds, stack, pieces, colours))
    markers: dict[int, list[Marker]] = {}
    for marker in position.markers:
        markers.setdefault(space_of(marker.space, "a marker")[0], []).append(marker)
    for i, tags in markers.items():
        per_space[i].append(_markers(layout, board.spaces[i], kinds, tags, colours))
    out = {space_slot(i): "".join(parts) for i, parts in per_space.items()}
    lines = []
    for link in position.links:
        if link.kind not in link_kinds:
            raise PictureError(f"no link kind {link.kind!r} in the board's legend")
        lines.append(_link(layout, space_of(link.a, "a link")[1], space_of(link.b, "a link")[1],
                           link_kinds[link.kind]))
    out[LINKS_SLOT] = "".join(lines)
    texts = status_rows(position)
    total = len(texts) if rows is None else rows
    if len(texts) > total:
        raise PictureError(f"{len(texts)} status rows do not fit in {total}")
    x = layout.map_width + 16
    for row in range(total):
        out[status_slot(row)] = _status_row(x, layout.status_top + row * ROW,
                                            texts[row] if row < len(texts) else "",
                                            position.sides, row)
    return out


def frame_svg(board: Board, rows: int) -> str:
    """The board with every slot empty, `rows` status rows tall."""
    return _document(board, {}, rows)


def render_svg(board: Board, position: Position | None = None) -> str:
    """One standalone picture: the board, and the position when given."""
    if position is None:
        return _document(board, {}, 0)
    fragments = slot_fragments(board, position)
    return _document(board, fragments, len(status_rows(position)))


# -- the document -------------------------------------------------------------------------------

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def _document(board: Board, fragments: dict[str, str], rows: int) -> str:
    layout = Layout.of(board)
    width, height = layout.width, layout.height(rows)
    kinds = {k.id: k for k in board.space_kinds}
    link_kinds = {k.id: k for k in board.link_kinds}
    by_id = {s.id: s for s in board.spaces}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family={quoteattr(FONT)}>',
        f"<title>{escape(board.title)}</title>",
        f'<rect width="{layout.map_width:.0f}" height="{height:.0f}" fill="{SEA}"/>',
        f'<rect x="{layout.map_width:.0f}" width="{LEGEND_WIDTH}" height="{height:.0f}" '
        f'fill="{PANEL}" stroke="#c9bfa8"/>',
        _text(16, 24, board.title, size=17, weight="bold"),
        '<g id="agon-board-links">',
    ]
    for link in board.links:
        for end in (link.a, link.b):
            if end not in by_id:
                raise PictureError(f"a link names no space of the board: {end!r}")
        if link.kind not in link_kinds:
            raise PictureError(f"no link kind {link.kind!r} in the board's legend")
        parts.append(_link(layout, by_id[link.a], by_id[link.b], link_kinds[link.kind]))
    parts.append("</g>")
    parts.append(_slot(LINKS_SLOT, fragments))
    parts.append('<g id="agon-spaces">')
    for space in board.spaces:
        if space.kind not in kinds:
            raise PictureError(f"space {space.id!r} is of no kind in the legend: {space.kind!r}")
        parts.append(_space(layout, space, kinds[space.kind]))
    parts.append("</g>")
    parts.extend(_slot(space_slot(i), fragments) for i in range(len(board.spaces)))
    parts.append(_legend(layout))
    parts.extend(_slot(status_slot(row), fragments) for row in range(rows))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _slot(slot_id: str, fragments: dict[str, str]) -> str:
    return f'<g id="{slot_id}">{fragments.get(slot_id, "")}</g>'


def _text(x: float, y: float, text: str, *, size: float = 11, weight: str = "normal",
          anchor: str = "start", fill: str = INK, halo: str = "") -> str:
    """A line of text; `halo`: a colour drawn around the letters so they read on anything."""
    attrs = (f'x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
             f'text-anchor="{anchor}"')
    body = escape(text)
    under = (f'<text {attrs} fill="none" stroke="{halo}" stroke-width="3" '
             f'stroke-linejoin="round" opacity="0.85">{body}</text>' if halo else "")
    return f'{under}<text {attrs} fill="{fill}">{body}</text>'


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


def _space(layout: Layout, space: Space, kind: SpaceKind) -> str:
    x, y = layout.at(space)
    r = kind.size
    parts = [f'<g class="space" data-space={quoteattr(space.id)}>',
             f"<title>{escape(space.label)}{' (' + escape(space.note) + ')' if space.note else ''}"
             "</title>",
             _shape(kind.shape, x, y, r, kind.fill, kind.stroke),
             _text(x, y - r - 7, space.label, size=10.5, weight="bold", anchor="middle",
                   halo="#ffffff")]
    if space.note:
        parts.append(_text(x, y + r + 10, space.note, size=8, anchor="middle", fill="#4a4a4a",
                           halo="#ffffff"))
    parts.append("</g>")
    return "".join(parts)


def _link(layout: Layout, a: Space, b: Space, kind: LinkKind) -> str:
    (x1, y1), (x2, y2) = layout.at(a), layout.at(b)
    dash = f' stroke-dasharray="{kind.dash}"' if kind.dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{kind.colour}" stroke-width="{kind.width}"{dash} stroke-linecap="round"/>')


def _control_ring(layout: Layout, space: Space, kinds: dict[str, SpaceKind], colour: str,
                  side: str) -> str:
    kind = kinds[space.kind]
    x, y = layout.at(space)
    ring = _shape(kind.shape, x, y, kind.size + 3.5, "none", colour, width=4)
    return f'<g class="control" data-side={quoteattr(side)}>{ring}</g>'


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


def _stack(layout: Layout, space: Space, kinds: dict[str, SpaceKind], stack: list[Piece],
           piece_kinds: dict[str, PieceKind], colours: dict[str, str]) -> str:
    """The pieces on one space: one row per side, below the space."""
    x, y = layout.at(space)
    top = y + kinds[space.kind].size + (14 if space.note else 4) + PIECE / 2
    rows: dict[str, list[Piece]] = {}
    for piece in stack:
        rows.setdefault(piece.side, []).append(piece)
    parts = []
    for r, (side, row) in enumerate(rows.items()):
        cy = top + r * (PIECE + 3)
        step = PIECE + 4
        left = x - step * (len(row) - 1) / 2
        for k, piece in enumerate(row):
            cx = left + k * step
            kind = piece_kinds[piece.kind]
            fill = colours.get(side, NEUTRAL)
            tip = f"{side or 'neutral'}: {piece.count} {kind.label}"
            if piece.detail:
                tip += f" ({piece.detail})"
            number = (_text(cx, cy + 3.5, str(piece.count), size=9, weight="bold",
                            anchor="middle", fill="#ffffff", halo="#1a1a1a")
                      if piece.count > 1 else "")
            parts.append(f'<g class="piece" data-side={quoteattr(side)} '
                         f'data-kind={quoteattr(piece.kind)} data-count="{piece.count}">'
                         f"<title>{escape(tip)}</title>"
                         f"{_piece_icon(kind.shape, cx, cy, fill)}{number}</g>")
    return "".join(parts)


def _markers(layout: Layout, space: Space, kinds: dict[str, SpaceKind], tags: list[Marker],
             colours: dict[str, str]) -> str:
    x, y = layout.at(space)
    r = kinds[space.kind].size
    parts = []
    for k, tag in enumerate(tags):
        width = 6 + 5.2 * len(tag.text)
        tx, ty = x + r + 4, y + 1 + k * 13
        colour = colours.get(tag.side, "#5a5a5a")
        parts.append(f'<g class="marker" data-side={quoteattr(tag.side)}>'
                     f'<rect x="{tx:.1f}" y="{ty - 9:.1f}" width="{width:.1f}" height="12" rx="3" '
                     f'fill="#ffffff" stroke="{colour}" stroke-width="1.5"/>'
                     + _text(tx + 3, ty, tag.text, size=8.5, fill=colour) + "</g>")
    return "".join(parts)


def _legend(layout: Layout) -> str:
    board = layout.board
    x = layout.map_width + 16
    y = TITLE_HEIGHT + 10
    parts = ['<g id="agon-legend">']

    def heading(text: str) -> None:
        nonlocal y
        parts.append(_text(x, y, text, size=12, weight="bold"))
        y += ROW

    def entry(sample: str, label: str) -> None:
        nonlocal y
        parts.append(sample + _text(x + 24, y + 4, label, size=10.5))
        y += ROW

    heading("Legend")
    for kind in board.space_kinds:
        entry(_shape(kind.shape, x + 8, y, 6, kind.fill, kind.stroke), kind.label)
    for kind in board.link_kinds:
        entry(_link_sample(x, y, kind), kind.label)
    for kind in board.piece_kinds:
        entry(_piece_icon(kind.shape, x + 8, y, "#9a9a9a"), kind.label)
    parts.append(_text(x, layout.status_top - ROW + 4, "Players and position", size=12,
                       weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _link_sample(x: float, y: float, kind: LinkKind) -> str:
    dash = f' stroke-dasharray="{kind.dash}"' if kind.dash else ""
    return (f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 18:.1f}" y2="{y:.1f}" '
            f'stroke="{kind.colour}" stroke-width="{kind.width}"{dash}/>')


def _status_row(x: float, y: float, text: str, sides: Iterable[Side], row: int) -> str:
    sides = list(sides)
    if row < len(sides):   # the first rows name the sides beside their colour
        side = sides[row]
        return (f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="12" height="12" fill="{side.colour}" '
                f'stroke="#1a1a1a"/>' + _text(x + 18, y + 1, side.label, size=10.5))
    return _text(x, y + 1, text, size=10.5)
