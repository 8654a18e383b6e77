# warm-vs-cold.gp - throughput with the source in the page cache (warm)
# beside the same copy after evicting it (cold), per strategy, each bar with
# its min-max whisker; a dashed line at each limit row the bars are divided
# by in the table's %limit (warm: memcpy, cold: a device read), named at its
# right end.
#
# Data (plot-warm-vs-cold.dat), two blocks:
#   0: label  warm: median slowest fastest  cold: median slowest fastest  (MiB/s)
#   1: cache  limit_row  MiB/s  name_y   (one line per limit row; may be empty;
#      name_y: where its name goes, above the line and clear of the others)
# Variables: datafile, out, fmt, plotsdir, ttl, npoints (bars of block 0),
# nlimits (lines of block 1).
load plotsdir.'/common.gp'
set title ttl
set style data histograms
set style histogram errorbars gap 1 lw 1
set boxwidth 0.9
set ylabel 'throughput (MiB/s; bar: median, whiskers: min-max)'
set xtics rotate by -30 left
set bmargin 6
set yrange [0:*]
set xrange [-0.6:npoints - 0.4]
set key outside top center horizontal
limit(c) = (strcol(1) eq c) ? column(3) : NaN
if (nlimits > 0) {
	plot datafile index 0 using 2:3:4:xtic(1) lt 2 title 'warm cache', \
	     '' index 0 using 5:6:7 lt 1 title 'cold cache', \
	     '' index 1 using (-0.5):(limit('warm')):(npoints):(0) with vectors nohead lt 2 dt 2 lw 2 \
		title 'limit, warm (memory)', \
	     '' index 1 using (-0.5):(limit('cold')):(npoints):(0) with vectors nohead lt 1 dt 2 lw 2 \
		title 'limit, cold (device)', \
	     '' index 1 using (npoints - 0.5):4:(sprintf('%s %.0f MiB/s', strcol(2), column(3))) \
		with labels right notitle
} else {
	plot datafile index 0 using 2:3:4:xtic(1) lt 2 title 'warm cache', \
	     '' index 0 using 5:6:7 lt 1 title 'cold cache'
}
