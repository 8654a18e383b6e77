# throughput.gp - median throughput per strategy, fastest first, with
# whiskers at the median's 95 % interval (summary.csv's median_lo_ns and
# median_hi_ns; min-max in results without them); one panel per workload. Strategies that could not run
# here appear as empty bars marked "unavailable" (or "failed").
#
# Data (plot-throughput.dat), one block per workload, in panel order:
#   label  median_MiB/s  low_MiB/s  high_MiB/s  note  colour
# (colour: the strategy's, from the palette keyed by strategy name, as an
# integer 0xRRGGBB: the same in every chart)
# Variables: datafile, out, fmt, plotsdir, ttl (title), panels (one quoted
# panel title per block), nblocks, bars<i> (rows of block i that ran: 0 for
# a workload none of whose rows succeeded, drawn as its notes alone).
h = 160 + 440 * nblocks
load plotsdir.'/common.gp'
set multiplot layout nblocks,1 title ttl
set ylabel 'throughput (MiB/s; bar: median, whiskers: its 95 % interval)'
set xtics rotate by -30 left
set yrange [0:*]
set offsets 0.6, 0.6, 0, 0
set boxwidth 0.7
set bmargin 6
do for [i = 0:nblocks - 1] {
	set title word(panels, i + 1)
	# a workload none of whose rows ran: its notes on an axis of its own
	if (value(sprintf('bars%d', i)) > 0) { set yrange [0:*] } else { set yrange [0:1] }
	plot datafile index i using 0:2:6:xtic(1) with boxes lc rgb variable notitle, \
	     '' index i using 0:2:3:4 with yerrorbars lc rgb '#222222' pt 0 notitle, \
	     '' index i using 0:(0):5 with labels rotate left offset 0,0.5 tc rgb '#c44e52' notitle
}
unset multiplot
