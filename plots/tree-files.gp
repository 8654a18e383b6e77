# tree-files.gp - trees of many files: files per second (left) and MiB/s
# (right) against the size of each file, log-log, one curve per strategy or
# tree method. Small files are bound by per-file work (files/s flat), large
# ones by bytes (MiB/s flat).
#
# Data (plot-tree-files.dat), one block per strategy:
#   file_bytes  files_per_s  mib_per_s  size_label
# Variables: datafile, out, fmt, plotsdir, ttl, names, colours, nblocks.
load plotsdir.'/common.gp'
# one size of file only: a range around it (a log axis of one point is empty)
stats datafile using 1 nooutput
if (STATS_min == STATS_max) set xrange [STATS_min / 2 : STATS_max * 2]
set multiplot layout 1, 2 title ttl
set logscale xy
set format y '%g'
set xlabel 'size of each file (bytes, log scale)'
set offsets graph 0.05, graph 0.05, 0, 0
set key outside bottom center horizontal
set ylabel 'files per second (median)'
plot for [i = 0:nblocks - 1] datafile index i using 1:2:xtic(4) \
	with linespoints lt (i + 1) lc rgb word(colours, i + 1) title word(names, i + 1)
set ylabel 'MiB/s (median)'
plot for [i = 0:nblocks - 1] datafile index i using 1:3:xtic(4) \
	with linespoints lt (i + 1) lc rgb word(colours, i + 1) title word(names, i + 1)
unset multiplot
