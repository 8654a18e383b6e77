# cpu-split.gp - where the CPU time of a copy goes: user against system time
# per strategy (stacked), with the wall-clock median as a dot. All three
# cover the same timed region (CPU times are read by the child around its
# clock), so a dot far above its bar means the copy waited (for the disk, or
# for other work); a bar above its dot, work on several CPUs. rusage splits
# CPU time by clock ticks: a row under 5 ticks of CPU a run is drawn as one
# hatched grey bar of its total, unsplit, and named in the caveat below the
# chart.
#
# Data (plot-cpu-split.dat): label  user_ms  sys_ms  wall_ms  unsplit_ms
# (a row is either split, unsplit_ms 0, or unsplit, user_ms and sys_ms 0)
# Variables: datafile, out, fmt, plotsdir, ttl, caveat ("" when none),
# nunsplit (rows drawn unsplit).
if (!exists("nunsplit")) nunsplit = 1
load plotsdir.'/common.gp'
set title ttl
set style data histograms
set style histogram rowstacked
set boxwidth 0.7
set ylabel 'time per copy (ms, median)'
set xtics rotate by -30 left
set bmargin 6
set yrange [0:*]
set key outside right top
if (exists("caveat") && strlen(caveat) > 0) \
	set label 1 caveat at screen 0.01, screen 0.02 left font ",8"
plot datafile using 2:xtic(1) lt 1 title 'user CPU', \
     '' using 3 lt 2 title 'system CPU', \
     '' using 5 lc rgb '#8c8c8c' fs pattern 4 border rgb '#333333' \
	title (nunsplit > 0 ? 'CPU, too short to split' : ''), \
     '' using 0:4 with points lc rgb '#222222' pt 7 title 'wall clock'
