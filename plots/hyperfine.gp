# hyperfine.gp - whole-process copies timed by hyperfine (bench copy for each
# strategy beside cp, dd and cat): mean time per copy, stddev as error bars,
# warm and cold cache side by side. Process start-up is included here, unlike
# in the in-process figures.
#
# Data (plot-hyperfine.dat):
#   command  warm_mean_ms  warm_stddev_ms  cold_mean_ms  cold_stddev_ms
# (NaN where a state was not run). Variables: datafile, out, fmt, plotsdir,
# ttl, states ('warm cold', 'warm' or 'cold').
load plotsdir.'/common.gp'
set title ttl
set style data histograms
set style histogram errorbars gap 1 lw 1
set boxwidth 0.9
set ylabel 'time per copy (ms; mean, bars: stddev)'
set xtics rotate by -30 left
set bmargin 7
set yrange [0:*]
if (states eq 'warm cold') {
	plot datafile using 2:3:xtic(1) lt 2 title 'warm cache', \
	     '' using 4:5 lt 1 title 'cold cache'
} else {
	if (states eq 'warm') {
		plot datafile using 2:3:xtic(1) lt 2 title 'warm cache'
	} else {
		plot datafile using 4:5:xtic(1) lt 1 title 'cold cache'
	}
}
