# cpu-split.gp - where the CPU time of a copy goes: user against system time
# per strategy (stacked), with the wall-clock median as a dot. All three
# cover the same timed region (CPU times are read by the child around its
# clock), so a dot far above its bar means the copy waited (for the disk, or
# for other work); a bar above its dot, work on several CPUs. Rows under
# 20 ms of CPU a run are left out (rusage splits by scheduler ticks) and
# named in the caveat below the chart.
#
# Data (plot-cpu-split.dat): label  user_ms  sys_ms  wall_ms
# Variables: datafile, out, fmt, plotsdir, ttl, caveat ("" when none).
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
     '' using 0:4 with points lc rgb '#222222' pt 7 title 'wall clock'
