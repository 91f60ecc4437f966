# 3x3x3: the tables `pdb build perm:3x3x3` makes (see docs/perm.md, "Pattern tables"):
# those listed here (of patterns standing in for each other, `Replaces`, the first that fits
# --memory).
# `Pieces SET N...`: a piece table of those pieces (distinct, with their orientations).
# `Pattern NAME` ... `End`: per set what it keeps: `SET orientations` (the orientation at
# every cell), `SET class N...` (these pieces as one class: only the cells they occupy),
# `SET distinct N...` (these pieces kept apart); the other pieces of a named set are
# identical, sets not named are dropped. `Replaces NAME`: the pattern stands in for pattern
# NAME, built and used in its place when it fits the memory budget.

# Kociemba's phase-1 coordinates with the 4 UD-slice edges FR FL BR BL kept apart: the
# twist of the 8 corners (3^7), the flip of the 12 edges (2^11) and the cells of the slice
# edges in order (12!/8! = 11,880): 53.2 x 10^9 positions, stored reduced by the 16
# symmetries that keep the U-D axis, mirrors included (Y, Z2 and M of 3x3x3.sym generate
# them): 3,332,690,568 entries (795 MiB, and a sym-move table of 89 MB; a build also holds a
# class table of 97 MB), distances to 13. Looked up at the
# position and at its conjugates by the two Symmetry rotations of 3x3x3.sym (there the
# slice is the RL or FB slice). Without `Reduced` it would need 12.4 GiB.
Pattern twist-flip-sortedslice
CORNERS orientations
EDGES orientations
EDGES distinct 9 10 11 12
Reduced
End

# Where --memory is 2.91 GiB or more (a solve holds 2.5 GiB, and takes tables up to seven
# eighths of --memory; its build, in place, 2.8 GiB), this one instead: the same twist and flip, and which of three groups each edge
# sits in (the E slice FR FL BR BL, the U layer UF UR UB UL, the D layer: 12!/(4!4!4!) =
# 34,650) in place of the order of the E slice's edges; U and D turns keep it, as they keep
# the pattern above. 155 x 10^9 positions, reduced by the same 16 symmetries to
# 9,717,300,270 entries (2.3 GiB), distances to 13. On random positions it takes about 0.45
# times the nodes and 0.6-0.7 times the time of the pattern above (docs/benchmarks.md,
# "A larger pattern").
Pattern twist-flip-layers
CORNERS orientations
EDGES orientations
EDGES class 9 10 11 12
EDGES class 1 2 3 4
Reduced
Replaces twist-flip-sortedslice
End

# Where --memory is 17.6 GiB or more (a solve holds 15.4 GiB, and so does its file: 13.6 GiB
# of cells and a sym-move table of 1.7 GiB), and the disk has room for its build (43 GiB), this one instead: the layers above with the E
# slice's edges in two pairs of opposite edges (FR BL, FL BR) in place of one group of four
# (12!/(2! 2! 4! 4!) = 207,900 in place of 34,650). U and D turns keep it. 1.2 x 10^12
# positions, reduced by the same 16 symmetries to 58,238,629,020 entries, distances to 14.
# On random positions it takes about 0.2 times the nodes of the pattern above
# (docs/benchmarks.md, "The slice edges in pairs").
Pattern twist-flip-layers-pairs
CORNERS orientations
EDGES orientations
EDGES class 9 12
EDGES class 10 11
EDGES class 1 2 3 4
Reduced
Replaces twist-flip-layers
End

# Not listed (docs/perm.md, "Pattern tables"; measured in docs/benchmarks.md, "The 3x3x3
# cube"): the same with the slice edges as one class (`EDGES class 9 10 11 12`, not reduced:
# 2,217,093,120 entries, 529 MiB, distances to 12): about 7 times the nodes. Nor the piece
# tables of the default build without this file: beside that pattern, the 8 corners (`Pieces
# CORNERS 1 2 3 4 5 6 7 8`, 88 M entries) cut the nodes of a 15-move scramble by 15% for 25%
# more CPU time, and a 17-move one took more than 200 s instead of 170 s; the two 7-edge
# tables (511 M entries each) cut the nodes by a further 5% for twice the CPU time per node.
# Nor a pattern the 48 symmetries keep: every corner distinct with its orientation and each
# edge's slice (`CORNERS distinct 1 2 3 4 5 6 7 8`, `CORNERS orientations`, `EDGES class 1 3
# 5 7`, `class 2 4 6 8`, `class 9 10 11 12`, `Reduced`: 63,824,260,500 cells, 14.9 GiB,
# distances to 14): one lookup a child, but 6-10 times the nodes of twist-flip-layers.

# Two-phase solving (`--algorithm two-phase`, Kociemba's algorithm; see docs/perm.md,
# "Two-phase solving"). The subgroup <U, D, R2, L2, F2, B2> (19,508,428,800 positions) is
# what keeps every corner twist, every edge flip and the 4 UD-slice edges FR FL BR BL in
# the slice: 2187 x 2048 x 495 cosets. Phase 1 reaches it over all moves, bounded by the
# twist and the flip, each with the slice edges' cells (1,082,565 and 1,013,760 entries);
# phase 2 solves inside it with its 10 moves, bounded by the corners with the slice edges
# in order and by the 12 edges in order (967,680 entries each). The four tables are built
# in memory in a fraction of a second.
Subgroup U D R2 L2 F2 B2
CORNERS orientations
EDGES orientations
EDGES class 9 10 11 12
End
Phase1 twist-slice
CORNERS orientations
EDGES class 9 10 11 12
End
Phase1 flip-slice
EDGES orientations
EDGES class 9 10 11 12
End
Phase2 corners-slice
CORNERS distinct 1 2 3 4 5 6 7 8
EDGES distinct 9 10 11 12
End
Phase2 edges
EDGES distinct 1 2 3 4 5 6 7 8 9 10 11 12
End
