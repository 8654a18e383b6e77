# compare.gp - the strategies side by side in several environments (other
# filesystems, kernels, hosts: whatever differs between the results folders,
# or the filesystems of one bench --fs run): one group of bars per
# environment, one bar per strategy (its median throughput there), one panel
# per workload. Where a strategy has no bar in a group, a note in its place
# says why: cloned (no bytes copied), unavailable, failed, or not run.
#
# Data (plot-compare.dat), per workload a block of bars and, when a bar is
# missing, a block of notes:
#   label  then per strategy 1..n: median slowest fastest (MiB/s; NaN: none)
#   line  column  why          (a missing bar: environment line, strategy 0..n-1)
# gnuplot's `index` counts only blocks with data, so bench plot names each
# panel's blocks: block<i> and noteblock<i> (-1: no notes block).
# An environment with results of a workload but none of its panel's slice
# (another size) has no line there; caveat names it ("" when none).
# Variables: datafile, out, fmt, plotsdir, ttl, caveat, panels (one quoted title per
# workload), nblocks (workloads), and per workload i: names<i> (the quoted
# strategy names, in column order), nnames<i>, colours<i> (each strategy's
# colour, from the palette keyed by strategy name: the same in every panel
# and chart), nnotes<i> (lines of its notes block), block<i>, noteblock<i>.
h = 160 + 460 * nblocks
w = 1200
load plotsdir.'/common.gp'
# a dozen strategies side by side: 16 distinct colours before any repeats
palette = '#4878a8 #e4803a #5aa05a #c44e52 #8172b2 #937860 #da8bc3 #8c8c8c '. \
          '#ccb974 #64b5cd #1b3a5c #a0522d #2e8b57 #ff9896 #c5b0d5 #17becf'
do for [k = 1:16] { set linetype k lc rgb word(palette, k) lw 1 }
set linetype cycle 16
if (exists("caveat") && strlen(caveat) > 0) \
	set label 1 caveat at screen 0.01, screen 0.01 left font ",8"
set multiplot layout nblocks,1 title ttl
set style data histograms
gap = 1.5
set style histogram errorbars gap 1.5 lw 1
set boxwidth 0.9 relative
set ylabel 'throughput (MiB/s; bar: median, whiskers: min-max)'
set yrange [0:*]
set key outside right top vertical
set datafile missing 'NaN'
do for [i = 0:nblocks - 1] {
	set title word(panels, i + 1)
	names = value(sprintf('names%d', i))
	n = value(sprintf('nnames%d', i))
	colours = value(sprintf('colours%d', i))
	b = value(sprintf('block%d', i))
	nb = value(sprintf('noteblock%d', i))
	# the middle of bar `col` (0-based) of line `row` in a clustered histogram
	barx(row, col) = row + (col - (n - 1) / 2.0) / (n + gap)
	if (nb >= 0) {
		plot for [k = 1:n] datafile index b using (column(3 * k - 1)):(column(3 * k)):(column(3 * k + 1)):xtic(1) \
			lc rgb word(colours, k) title word(names, k), \
		     '' index nb using (barx(column(1), column(2))):(0):3 with labels rotate left \
			offset 0,0.5 tc rgb '#555555' notitle
	} else {
		plot for [k = 1:n] datafile index b using (column(3 * k - 1)):(column(3 * k)):(column(3 * k + 1)):xtic(1) \
			lc rgb word(colours, k) title word(names, k)
	}
}
unset multiplot
