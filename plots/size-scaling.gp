# size-scaling.gp - median time against source size, log-log, one curve per
# strategy. A slope of 1 is linear scaling; start-up costs bend the small
# end flat.
#
# Data (plot-size-scaling.dat), one block per strategy:
#   size_bytes  median_seconds  size_label
# Variables: datafile, out, fmt, plotsdir, ttl, names, nblocks.
load plotsdir.'/common.gp'
set title ttl
set logscale xy
set format y '%g'
set xlabel 'source size (bytes, log scale)'
set ylabel 'time per copy (s, median, log scale)'
set offsets graph 0.05, graph 0.05, 0, 0
set key outside right top
plot for [i = 0:nblocks - 1] datafile index i using 1:2:xtic(3) \
	with linespoints lt (i + 1) lc rgb word(colours, i + 1) title word(names, i + 1)
