# skewb: the tables `pdb build perm:skewb` makes (see docs/perm.md, "Pattern tables"; the
# syntax is 3x3x3.pat's).

# The whole skewb: every piece distinct with its orientation, 37,791,360 positions (the
# group's order; the ranked space numbers only the corner combinations the moves reach
# together), 9.0 MiB at 2 bits, distances to 11, built in about a second. The table is
# exact: a solve steps only along an optimal path (9 nodes for a 9-mover), where the corner
# and centre piece tables (66 MB) left 13,214.
Pattern whole
CORNERS orientations
CORNERS distinct 1 2 3 4 5 6 7 8
CENTERS distinct 1 2 3 4 5 6
End
