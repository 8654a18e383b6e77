# buffer-sweep.gp - throughput against buffer size (log x) for each strategy
# that takes a buffer: the 8K / 64K / 4M comparison as curves.
#
# Data (plot-buffer-sweep.dat), one block per strategy (and channel batch),
# a line per buffer it ran with:
#   buffer_bytes  median_MiB/s  buffer_label
# Variables: datafile, out, fmt, plotsdir, ttl, colours (each curve's colour, from the
# palette keyed by strategy name), names (one quoted title per
# block), nblocks.
load plotsdir.'/common.gp'
set title ttl
set logscale x 2
set xlabel 'buffer size (bytes, log scale)'
set ylabel 'throughput (MiB/s, median)'
set yrange [0:*]
set offsets graph 0.05, graph 0.05, 0, 0
set key outside right top
plot for [i = 0:nblocks - 1] datafile index i using 1:2:xtic(3) \
	with linespoints lt (i + 1) lc rgb word(colours, i + 1) title word(names, i + 1)
