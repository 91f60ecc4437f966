"""Notebook-style: the 8-puzzle's depth histogram from its whole depth table, plotted with
Matplotlib (Debian python3-matplotlib) into a PNG. In Jupyter, drop the Agg line and the
savefig, and the figure shows inline; `tansaku.solve("8-puzzle")` alone draws its player.
Run: PYTHONPATH=build/release/python /usr/bin/python3 examples/python/depth_histogram.py [OUT.png]
"""
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write a file
import matplotlib.pyplot as plt
import numpy as np

import tansaku

out = sys.argv[1] if len(sys.argv) > 1 else "8-puzzle-depths.png"

# %% The whole space: explore's report plus the table of every state's depth.
r = tansaku.explore("8-puzzle", table=True)
t = r.table
depth = t.depth[t.depth != 255]            # reached states only (the other parity is not ranked)
counts = np.bincount(depth)
assert counts.tolist() == r.histogram      # the table agrees with explore's histogram

# %% The farthest positions, mapped back from their ranks.
far = np.flatnonzero(t.depth == r.depth)
print(f"{r.states} states, depth {r.depth}; farthest: {[t.unrank(int(i)) for i in far]}")

# %% The plot.
fig, ax = plt.subplots(figsize=(8, 4))
ax.bar(np.arange(len(counts)), counts, color="#3b7dd8")
ax.set_yscale("log")
ax.set_xlabel("moves from the goal")
ax.set_ylabel("positions")
ax.set_title(f"8-puzzle: {r.states:,} positions by distance from {r['from']}")
fig.tight_layout()
fig.savefig(out, dpi=100)
print("wrote", out)
