#!/usr/bin/env python3
"""Writes the geometric builtin definitions of data/perm/ (2x2x2, 3x3x3, skewb, pyraminx)
from a model in space: pieces at points, stickers as outward face normals, a move rotates
every piece on the positive side of a plane about an axis. Orientation of a piece = which of
its position's stickers (listed in a fixed cyclic order) its reference sticker sits on; the
orientation row of a ksolve move is indexed by the position the piece comes from. The
pictures' nets (NAME.net) come from the same model: each sticker of each piece drawn on the
face its normal points out of."""
import itertools, sys
from fractions import Fraction as Fr

def dot(a, b): return sum(x * y for x, y in zip(a, b))
def cross(a, b): return (a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0])
def det(a, b, c): return dot(a, cross(b, c))
def norm(v):
    g = max(abs(x) for x in v)
    return tuple(Fr(x) / g for x in v)

def rotation(axis, turns):
    """Rotation matrix by -360/turns degrees (clockwise seen from outside) about axis, exact
    for the axes used here (integer vectors, 90 or 120 degree turns)."""
    import math
    n = math.sqrt(dot(axis, axis)); u = [a / n for a in axis]
    th = -2 * math.pi / turns; c, s = math.cos(th), math.sin(th)
    R = [[0]*3 for _ in range(3)]
    # Rodrigues with the cross-product matrix
    K = [[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]]
    for i in range(3):
        for j in range(3):
            R[i][j] = c*(i == j) + (1-c)*u[i]*u[j] + s*K[i][j]
    return R

def apply(R, v):
    return tuple(round(sum(R[i][j]*v[j] for j in range(3)) * 6) / 6 for i in range(3))

def close(a, b): return all(abs(x - y) < 1e-6 for x, y in zip(a, b))

class PieceSet:
    def __init__(self, name, points, faces_of):
        self.name, self.points = name, points
        self.faces = [faces_of(p) for p in points]  # ordered sticker normals per position

    def move(self, R, side):
        n = len(self.points)
        perm, twist = [None]*n, [0]*n
        for i, p in enumerate(self.points):
            if not side(p):
                perm[i] = i; continue
            q = apply(R, p)
            j = next(k for k, x in enumerate(self.points) if close(x, q))
            f0 = apply(R, self.faces[i][0])
            t = next(k for k, x in enumerate(self.faces[j]) if close(x, f0))
            perm[j] = i       # position j receives the piece from i
            twist[i] = t      # indexed by the source position
        return perm, twist

def cyclic(p, faces, first):
    """Stickers of a piece at p: `first` then the rest clockwise seen from outside."""
    rest = [f for f in faces if f != first]
    if len(rest) == 2 and det(first, rest[0], rest[1]) * 1 > 0:
        rest.reverse()
    return [first] + rest

def write(out, name, sets, moves, comment, extra=""):
    w = out.write
    w(comment)
    w(f"Name {name}\n\n")
    for s in sets:
        w(f"Set {s.name} {len(s.points)} {len(s.faces[0])}\n")
    w("\nSolved\n")
    for s in sets:
        w(f"{s.name}\n{' '.join(str(i+1) for i in range(len(s.points)))}\n")
        if len(s.faces[0]) > 1: w(' '.join('0' for _ in s.points) + "\n")
    w("End\n")
    for mname, R, side in moves:
        w(f"\nMove {mname}\n")
        for s in sets:
            perm, twist = s.move(R, side)
            if perm == list(range(len(perm))) and not any(twist):
                continue
            w(f"{s.name}\n{' '.join(str(x+1) for x in perm)}\n")
            if len(s.faces[0]) > 1: w(' '.join(map(str, twist)) + "\n")
        w("End\n")
    w(extra)

FACES = {'U': (0, 1, 0), 'D': (0, -1, 0), 'R': (1, 0, 0), 'L': (-1, 0, 0), 'F': (0, 0, 1), 'B': (0, 0, -1)}

def corner_points(names):
    pts = []
    for n in names:
        v = [0, 0, 0]
        for ch in n:
            v = [a + b for a, b in zip(v, FACES[ch])]
        pts.append(tuple(v))
    return pts

def corner_faces(p):
    fs = [FACES[k] for k in FACES if dot(FACES[k], p) > 0]
    first = next(f for f in fs if f[1] != 0)  # the U or D sticker
    return cyclic(p, fs, first)

CORNERS = ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"]
EDGES = ["UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL"]

def edge_faces(p):
    fs = [FACES[k] for k in FACES if dot(FACES[k], p) > 0]
    # reference: the U/D sticker, else the F/B sticker
    first = next((f for f in fs if f[1] != 0), None) or next(f for f in fs if f[2] != 0)
    return [first] + [f for f in fs if f != first]

# The facelet net (docs/perm.md, "Pictures"): each face's place in a cross, its colour, and
# its axes seen from outside (right, down), U with B at the top, D with F at the top.
NET = {'U': (1, 0, '#ffffff', (1, 0, 0), (0, 0, 1)), 'L': (0, 1, '#ff8c1a', (0, 0, 1), (0, -1, 0)),
       'F': (1, 1, '#00a651', (1, 0, 0), (0, -1, 0)), 'R': (2, 1, '#d7263d', (0, 0, -1), (0, -1, 0)),
       'B': (3, 1, '#1f5fbf', (-1, 0, 0), (0, -1, 0)), 'D': (1, 2, '#ffd500', (1, 0, 0), (0, 0, -1))}

def write_net(out, name, n, sets):
    w = out.write
    w(f"# {name}: facelet net written by scripts/perm_defs.py (see docs/perm.md, Pictures).\n")
    w("# Face NAME COLUMN ROW CELLS COLOUR; Sticker SET POSITION SLOT FACE COLUMN ROW; Fixed FACE COLUMN ROW\n")
    for f, (c, r, col, _, _) in NET.items():
        w(f"Face {f} {c} {r} {n} {col}\n")
    face_of = {v: k for k, v in FACES.items()}
    for s in sets:
        for j, p in enumerate(s.points):
            for o, normal in enumerate(s.faces[j]):
                f = face_of[tuple(int(x) for x in normal)]
                _, _, _, right, down = NET[f]
                x, y = dot(p, right), dot(p, down)
                col, row = ((x + 1) // 2, (y + 1) // 2) if n == 2 else (x + 1, y + 1)
                w(f"Sticker {s.name} {j + 1} {o} {f} {int(col)} {int(row)}\n")
    if n == 3:
        for f in NET:
            w(f"Fixed {f} 1 1\n")
    w("# A facelet string (--facelets) lists the faces in this order, each row by row as drawn: Kociemba's.\n")
    w("Facelets U R F D L B\n")

def num(x):
    t = f"{float(x):.4f}".rstrip('0').rstrip('.')
    return '0' if t in ('', '-0') else t

def write_poly_net(out, name, faces, sets, sticker, fixed):
    """A net of polygons (docs/perm.md, Pictures): `faces` (name, colour) in order; each
    sticker of each set's positions as sticker(point, normal) = (face, 2D corners); `fixed`
    the stickers of pieces not in the definition, as (face, 2D corners)."""
    w = out.write
    w(f"# {name}: facelet net written by scripts/perm_defs.py (see docs/perm.md, Pictures).\n")
    w("# Face NAME COLOUR; Poly SET POSITION SLOT FACE X1 Y1 X2 Y2 ...; FixedPoly FACE X1 Y1 X2 Y2 ...\n")
    for f, col in faces:
        w(f"Face {f} {col}\n")
    xy = lambda pts: ' '.join(f"{num(x)} {num(y)}" for x, y in pts)
    for s in sets:
        for j, p in enumerate(s.points):
            for o, normal in enumerate(s.faces[j]):
                f, pts = sticker(p, normal)
                w(f"Poly {s.name} {j + 1} {o} {f} {xy(pts)}\n")
    for f, pts in fixed:
        w(f"FixedPoly {f} {xy(pts)}\n")

# The skewb's net: the cubes' cross (NET), a face 1 unit across, 0.12 between faces; on
# each face the four corners' triangles (the corner and the midpoints of its two edges
# there) around the centre's square (the four midpoints).
SKEWB_GAP = Fr(12, 100)

def skewb_sticker(p, normal):
    f = {v: k for k, v in FACES.items()}[tuple(int(x) for x in normal)]
    c, r, _, right, down = NET[f]
    axes = [k for k in range(3) if normal[k] == 0]
    def unit(k, sign): return tuple(sign if i == k else 0 for i in range(3))
    def add(a, b): return tuple(x + y for x, y in zip(a, b))
    if all(p[k] != 0 for k in range(3)):  # a corner: it and the midpoints of its edges on the face
        pts = [p] + [tuple(0 if i == k else p[i] for i in range(3)) for k in axes]
    else:  # a centre: the face's edge midpoints in turn
        a, b = axes
        pts = [add(p, unit(a, 1)), add(p, unit(b, 1)), add(p, unit(a, -1)), add(p, unit(b, -1))]
    return f, [(c * (1 + SKEWB_GAP) + Fr(dot(q, right) + 1, 2), r * (1 + SKEWB_GAP) + Fr(dot(q, down) + 1, 2)) for q in pts]

def skewb_net(out, name, sets):
    """The sets' stickers as polygons; the corners no set holds (skewb-fixed's DFR) fixed."""
    held = {p for s in sets for p in s.points}
    fixed = [skewb_sticker(p, n) for p in corner_points(CORNERS) if p not in held for n in corner_faces(p)]
    write_poly_net(out, name, [(f, NET[f][2]) for f in NET], sets, skewb_sticker, fixed)

# The pyraminx's net: the tetrahedron unfolded into a big triangle, its front face F (the one
# without vertex B, U at the top) in the middle, L R D folded out over F's edges, 0.1 apart; a
# face 1 unit across. A face is named by the vertex it lacks (B: F, U: D, L: R, R: L). Each
# face is cut in nine: at each vertex the tip (not in the definition: fixed) and the centre
# below it, between them on each side the edge's sticker.
PYRAMINX_FACES = {'B': ('F', '#00a651'), 'L': ('R', '#1f5fbf'), 'R': ('L', '#d7263d'), 'U': ('D', '#ffd500')}
PYRAMINX_GAP = 0.1

def pyraminx_layout():
    """For each face (by the vertex it lacks) its vertices' places: vertex name -> (x, y)."""
    import math
    h = math.sqrt(3) / 2
    V = PYRAMINX
    # F seen from outside: U top, L bottom left, R bottom right is counter-clockwise
    assert dot(cross(tuple(a - b for a, b in zip(V['L'], V['U'])), tuple(a - b for a, b in zip(V['R'], V['U']))),
               tuple(-x for x in V['B'])) > 0
    front = {'U': (0.0, 0.0), 'L': (-0.5, h), 'R': (0.5, h)}
    layout = {'B': front}
    for w in 'LRU':  # the face without w: F's other two vertices, B where w folds over their edge
        a, b = [v for v in front if v != w]
        (ax, ay), (bx, by), (px, py) = front[a], front[b], front[w]
        ex, ey = bx - ax, by - ay
        t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)
        fx, fy = ax + t * ex, ay + t * ey  # foot of w on the edge
        qx, qy = 2 * fx - px, 2 * fy - py
        n = math.hypot(qx - fx, qy - fy)
        dx, dy = PYRAMINX_GAP * (qx - fx) / n, PYRAMINX_GAP * (qy - fy) / n
        layout[w] = {v: (x + dx, y + dy) for v, (x, y) in {a: front[a], b: front[b], 'B': (qx, qy)}.items()}
    x0 = min(x for f in layout.values() for x, _ in f.values())
    y0 = min(y for f in layout.values() for _, y in f.values())
    return {k: {v: (x - x0, y - y0) for v, (x, y) in f.items()} for k, f in layout.items()}

def pyraminx_net(out, name, sets):
    V = PYRAMINX
    layout = pyraminx_layout()
    def on(w): return [k for k in V if k != w]  # the vertices of the face without w
    def place(w, q):  # q = a weighted sum of the face's vertices: the same sum of their places
        A, B, C = (V[k] for k in on(w))
        wts = [Fr(det(q, B, C), det(A, B, C)), Fr(det(A, q, C), det(A, B, C)), Fr(det(A, B, q), det(A, B, C))]
        return tuple(sum(float(t) * layout[w][k][i] for t, k in zip(wts, on(w))) for i in range(2))
    def third(*vs): return tuple(Fr(sum(x), 3) for x in zip(*vs))
    def triangle(w, pts): return PYRAMINX_FACES[w][0], [place(w, q) for q in pts]
    def at_vertex(w, v, tip):  # at vertex v of the face without w: the tip, or the centre's sticker next to it
        a, b = [V[k] for k in on(w) if k != v]
        v = V[v]
        return triangle(w, [v, third(v, v, a), third(v, v, b)] if tip else [third(v, v, a), third(v, v, b), third(v, a, b)])
    def sticker(p, normal):
        w = next(k for k, v in V.items() if tuple(-x for x in v) == tuple(normal))
        at = [k for k in on(w) if tuple(V[k]) == tuple(p)]
        if at:  # a centre
            return at_vertex(w, at[0], False)
        v, u = [V[k] for k in on(w) if dot(V[k], p) == 1]  # an edge: its two ends and the face's third vertex
        (c,) = [V[k] for k in on(w) if dot(V[k], p) != 1]
        return triangle(w, [third(v, v, u), third(v, u, u), third(v, u, c)])
    fixed = [at_vertex(w, v, True) for w in PYRAMINX_FACES for v in on(w)]
    write_poly_net(out, name, [PYRAMINX_FACES[w] for w in PYRAMINX_FACES], sets, sticker, fixed)

def rotations():
    """The 23 whole-cube rotations other than the identity, as integer matrices: the two
    about the UFR-DBL diagonal first, then the others by kind (diagonals, faces, edges)."""
    import itertools
    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            R = [[0] * 3 for _ in range(3)]
            for i in range(3):
                R[i][perm[i]] = signs[i]
            d = (R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) - R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0])
                 + R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]))
            if d == 1 and R != [[1, 0, 0], [0, 1, 0], [0, 0, 1]]:
                mats.append(R)
    ax = corner_points(["UFR"])[0]
    def fixes(R, v): return apply(R, v) == tuple(v)
    def trace(R): return R[0][0] + R[1][1] + R[2][2]
    # trace 0: 120 degrees about a diagonal; 1: 90 about a face axis; -1: 180 degrees
    mats.sort(key=lambda R: (not fixes(R, ax), {0: 0, 1: 1, -1: 2}[trace(R)], str(R)))
    return mats

def write_symmetries(out, name, sets):
    """The whole-cube rotations as ksolve blocks: conjugating by one maps the face turns onto
    face turns, so a pattern database looked up at the conjugated position gives another
    bound (docs/perm.md). Only the two about the UFR-DBL diagonal: measured on a 15-move
    scramble, all 23 rotations (13 lookups more, the search's cap) cut the nodes by a quarter
    but take 1.8 times the CPU time of these two."""
    w = out.write
    w(f"# {name}: symmetries for conjugate lookups and table reduction, written by scripts/perm_defs.py (see docs/perm.md).\n")
    w("# Symmetry NAME, then per set its permutation row and orientation row as in a Move block.\n")
    def block(kind, name, R, mirror=False):
        w(f"\n{kind} {name}\n")
        if mirror:  # a reflection reverses the stickers' cyclic order: orientation t - o
            w("Mirror\n")
        for s in sets:
            perm, twist = s.move(R, lambda p: True)
            w(f"{s.name}\n{' '.join(str(x+1) for x in perm)}\n")
            if len(s.faces[0]) > 1: w(' '.join(map(str, twist)) + "\n")
        w("End\n")
    for k, R in enumerate(rotations()[:2]):
        block("Symmetry", f"S{k + 1}", R)
    # With the two above they generate the 24 rotations, and with the mirror M all 48
    # symmetries; the 16 that keep the U-D axis keep a pattern of the U-D slice, whose
    # table is then stored reduced (docs/perm.md).
    w("\n# Reduce blocks: symmetries for reducing tables only (no lookups there). `Mirror`: a\n")
    w("# reflection, which reverses orientations (a piece's orientation o becomes t - o).\n")
    block("Reduce", "Y", rotation(FACES['U'], 4))
    block("Reduce", "Z2", rotation(FACES['F'], 2))
    block("Reduce", "M", [[-1, 0, 0], [0, 1, 0], [0, 0, 1]], mirror=True)  # R <-> L

# The whole cube turned like R, U, F: rotations (twsearch names them x y z), never searched.
# A move that turns the centres is read up to them (docs/perm.md, "Slice, wide and rotation
# moves"): a slice or wide move is face moves and a rotation.
CUBE_ROTATIONS = [(n, rotation(FACES[f], 4), lambda p: True) for n, f in (("x", "R"), ("y", "U"), ("z", "F"))]
CUBE_NAMED = """
# Slice moves (M like L, E like D, S like F), wide moves (two layers) and their lower-case
# spellings: face moves and a rotation of the whole cube.
MoveSequence M R L' x'
MoveSequence E U D' y'
MoveSequence S F' B z
MoveSequence Rw L x
MoveSequence Lw R x'
MoveSequence Uw D y
MoveSequence Dw U y'
MoveSequence Fw B z
MoveSequence Bw F z'
MoveAlias r Rw
MoveAlias l Lw
MoveAlias u Uw
MoveAlias d Dw
MoveAlias f Fw
MoveAlias b Bw
"""

def cube(n):
    sets = [PieceSet("CORNERS", corner_points(CORNERS), corner_faces)]
    if n == 3:
        sets.append(PieceSet("EDGES", corner_points(EDGES), edge_faces))
    moves = [(f, rotation(FACES[f], 4), (lambda ax: lambda p: dot(p, ax) > 0)(FACES[f])) for f in "URFDLB"]
    return sets, moves

def skewb():
    corners = PieceSet("CORNERS", corner_points(CORNERS), corner_faces)
    centers = PieceSet("CENTERS", [FACES[f] for f in "URFDLB"], lambda p: [p])
    moves = []
    for c in ["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"]:
        ax = corner_points([c])[0]
        name = c if c != "URB" else "UBR"
        name = {"UBL": "ULB", "ULF": "UFL", "DRF": "DFR", "DLB": "DBL", "DBR": "DRB"}.get(c, name)
        moves.append((name, rotation(ax, 3), (lambda a: lambda p: dot(p, a) > 0)(ax)))
    return [corners, centers], moves

PYRAMINX = {'U': (1, 1, 1), 'L': (-1, -1, 1), 'R': (1, -1, -1), 'B': (-1, 1, -1)}  # vertices

def pyraminx():
    V = PYRAMINX
    face_normals = [tuple(-x for x in v) for v in V.values()]  # face opposite each vertex
    verts = list(V.values())
    edges = [tuple(Fr(a + b, 2) for a, b in zip(verts[i], verts[j])) for i, j in itertools.combinations(range(4), 2)]
    def edge_faces(p):
        # the two faces containing the edge: outward normals with dot = +1
        fs = sorted(f for f in face_normals if abs(dot(f, p) - 1) < 1e-9)
        return fs
    def centre_faces(p):
        fs = [f for f in face_normals if abs(dot(f, p) - 1) < 1e-9]
        return cyclic(p, fs, sorted(fs)[0])
    es = PieceSet("EDGES", edges, edge_faces)
    cs = PieceSet("CENTERS", verts, centre_faces)
    moves = [(k, rotation(v, 3), (lambda a: lambda p: dot(p, a) > 0)(v)) for k, v in V.items()]
    return [es, cs], moves

def split_by_orbits(sets, moves, suffixes):
    """The sets cut into the orbits of `moves` (positions no move touches are dropped)."""
    out = []
    for st in sets:
        parent = list(range(len(st.points)))
        def find(x):
            while parent[x] != x: x = parent[x]
            return x
        moved = set()
        for _, R, side in moves:
            perm, twist = st.move(R, side)
            for j, i in enumerate(perm):
                if i != j or twist[i]: moved.add(i); moved.add(j)
                a, b = find(i), find(j)
                if a != b: parent[max(a, b)] = min(a, b)
        groups = {}
        for i in sorted(moved): groups.setdefault(find(i), []).append(i)
        for k, idx in enumerate(groups.values()):
            sub = PieceSet(st.name + (suffixes[k] if len(groups) > 1 else ""), [st.points[i] for i in idx], lambda p: [])
            sub.faces = [st.faces[i] for i in idx]
            out.append(sub)
    return out

def main(outdir):
    hdr = "# {}: written by scripts/perm_defs.py from a geometric model (see docs/perm.md).\n# {}\n"
    s, m = cube(2)
    with open(f"{outdir}/2x2x2.tws", "w") as f:
        write(f, "2x2x2", s, m, hdr.format("2x2x2 cube", "Corners UFR URB UBL ULF DRF DFL DLB DBR; orientation 0 = U/D sticker up/down; moves turn a face clockwise.\n"))
    with open(f"{outdir}/2x2x2.net", "w") as f:
        write_net(f, "2x2x2", 2, s)
    with open(f"{outdir}/2x2x2.sym", "w") as f:
        write_symmetries(f, "2x2x2", s)
    s, m = cube(3)
    with open(f"{outdir}/3x3x3.net", "w") as f:
        write_net(f, "3x3x3", 3, s)
    with open(f"{outdir}/3x3x3.sym", "w") as f:
        write_symmetries(f, "3x3x3", s)
    with open(f"{outdir}/3x3x3.tws", "w") as f:
        write(f, "3x3x3", s, m + CUBE_ROTATIONS, hdr.format("3x3x3 cube (centres fixed)", "Corners UFR URB UBL ULF DRF DFL DLB DBR; edges UF UR UB UL DF DR DB DL FR FL BR BL.\n"), CUBE_NAMED)
    s, m = skewb()
    with open(f"{outdir}/skewb.tws", "w") as f:
        write(f, "skewb", s, m, hdr.format("Skewb", "Corners UFR URB UBL ULF DRF DFL DLB DBR, centres U R F D L B; a move turns the half around a corner clockwise.\n# The four moves ULB UBR UFL DBL keep corner DFR fixed: --moves ULB,UBR,UFL,DBL (3,149,280 positions).\n"))
    with open(f"{outdir}/skewb.net", "w") as f:
        skewb_net(f, "skewb", s)
    keep = [x for x in m if x[0] in ("ULB", "UBR", "UFL", "DBL")]
    fixed_sets = split_by_orbits(s, keep, ["A", "B"])
    with open(f"{outdir}/skewb-fixed.net", "w") as f:
        skewb_net(f, "skewb-fixed", fixed_sets)
    with open(f"{outdir}/skewb-fixed.tws", "w") as f:
        write(f, "skewb-fixed", fixed_sets, keep, hdr.format("Skewb with corner DFR fixed", "The moves ULB UBR UFL DBL of skewb.tws; the corners split into the two orbits they move.\n"))
    s, m = pyraminx()
    with open(f"{outdir}/pyraminx.tws", "w") as f:
        write(f, "pyraminx", s, m, hdr.format("Pyraminx without tips", "Edges at the midpoints of the tetrahedron's edges, centres (axial pieces) at the vertices U L R B.\n"))
    with open(f"{outdir}/pyraminx.net", "w") as f:
        pyraminx_net(f, "pyraminx", s)

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "data/perm")
