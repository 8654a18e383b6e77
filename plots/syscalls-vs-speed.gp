# syscalls-vs-speed.gp - system calls per MiB copied (log x) against
# throughput: one labelled point per strategy. Fewer, larger calls usually
# sit to the left; whether they also sit higher is the question.
#
# Data (plot-syscalls-vs-speed.dat): syscalls_per_MiB  median_MiB/s  label
# Variables: datafile, out, fmt, plotsdir, ttl.
load plotsdir.'/common.gp'
set title ttl
set logscale x 10
set xlabel 'system calls per MiB copied (log scale)'
set ylabel 'throughput (MiB/s, median)'
set yrange [0:*]
set offsets graph 0.08, graph 0.08, graph 0.1, 0
plot datafile using 1:2 with points lt 1 ps 1.6 notitle, \
     '' using 1:2:3 with labels offset 0,1.2 notitle
