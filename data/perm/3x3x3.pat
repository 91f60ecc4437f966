# 3x3x3: the pattern tables `pdb build` makes beside the piece tables (see docs/perm.md).
# Pattern NAME, then per set what it keeps: `SET orientations` (the orientation at every
# cell), `SET class N...` (these pieces as one class: only the cells they occupy),
# `SET distinct N...` (these pieces kept apart); the other pieces of a named set are
# identical, sets not named are dropped.
#
# Kociemba's phase-1 coordinates: the twist of the 8 corners (3^7), the flip of the 12
# edges (2^11) and the cells of the 4 UD-slice edges FR FL BR BL (C(12,4) = 495):
# 2,217,093,120 entries, 529 MiB at 2 bits.
Pattern twist-flip-slice
CORNERS orientations
EDGES orientations
EDGES class 9 10 11 12
End
