# history.gp - per workload, each case's median throughput over commits (x:
# the commits in the order they entered the history, named by short hash).
# A case with a level shift (`bench history changes`) is drawn bold with its
# band from the slowest to the fastest rep of each commit, the shift circled
# and labelled with the commit and the change; steady cases are thin lines
# without bands, so what changed stands out. One picture per workload
# (<outbase>-<workload>.<fmt>), then all of them stacked in `out`.
#
# Data (plot-history.dat), workload by workload: one block per case,
#   commit  median_MiB/s  slowest_MiB/s  fastest_MiB/s
# then one block of that workload's level shifts,
#   commit  median_MiB/s  line_type_of_its_case  "sha7 +x%"
# Variables: datafile, out, fmt, plotsdir, ttl (title), outbase, nwl, wls
# (workload names), wlfirst and wlcount (first block and number of case
# blocks of each workload), wlshift (its shifts block, -1 when none), names
# (one quoted title per case block), banded (1 per block of a case with a
# level shift, else 0), xt (the x tics), ncommits.
w = 1200
h = 620
load plotsdir.'/common.gp'

# The plot of workload number i (1-based), as a command for eval: bands
# first (only the shifted cases'), then every case's line, then the shifts.
panel(i) = sprintf("f = %d; c = %d; s = %d; ", int(word(wlfirst, i)), int(word(wlcount, i)), int(word(wlshift, i))) . \
	"plot " . bands(int(word(wlfirst, i)), int(word(wlcount, i))) . \
	"for [b = f:f + c - 1] datafile index b using 1:2 with linespoints lt (b - f + 1) " . \
	"lw (word(banded, b + 1) eq '1' ? 3 : 1) ps (word(banded, b + 1) eq '1' ? 1.2 : 0.6) title word(names, b + 1)" . \
	(int(word(wlshift, i)) < 0 ? "" : ", datafile index s using 1:2:3 with points pt 6 ps 3 lw 2 lc variable title 'level shift', " . \
	 "datafile index s using 1:2:4 with labels offset 0,1.8 font ',9' notitle")
band(b, lt) = sprintf("datafile index %d using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc %d notitle, ", b, lt)
bands(f, c) = bandlist(f, c, f)
bandlist(f, c, b) = b > f + c - 1 ? "" : (word(banded, b + 1) eq '1' ? band(b, b - f + 1) : "") . bandlist(f, c, b + 1)

style = "set xtics rotate by -90 left font ',8'; eval 'set xtics '.xt; set xrange [-0.5:ncommits - 0.5]; " . \
	"set ylabel 'MiB/s (median of the commit)'; set xlabel 'commit (short hash), in the order added'; " . \
	"set key outside right top vertical; set grid xtics ytics lc rgb '#e8e8e8'; set bmargin 7"

do for [i = 1:nwl] {
	set output outbase.'-'.word(wls, i).'.'.fmt
	eval style
	set title word(wls, i).': '.ttl
	eval panel(i)
}

h = 160 + 520 * nwl
load plotsdir.'/common.gp'
eval style
set multiplot layout nwl,1 title ttl
do for [i = 1:nwl] {
	set title word(wls, i)
	eval panel(i)
}
unset multiplot
