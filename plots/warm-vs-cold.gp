# warm-vs-cold.gp - throughput with the source in the page cache (warm)
# beside the same copy after evicting it (cold), per strategy.
#
# Data (plot-warm-vs-cold.dat): label  warm_MiB/s  cold_MiB/s
# Variables: datafile, out, fmt, plotsdir, ttl.
load plotsdir.'/common.gp'
set title ttl
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set ylabel 'throughput (MiB/s, median)'
set xtics rotate by -30 left
set bmargin 6
set yrange [0:*]
plot datafile using 2:xtic(1) lt 2 title 'warm cache', \
     '' using 3 lt 1 title 'cold cache'
