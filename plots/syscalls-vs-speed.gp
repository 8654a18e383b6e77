# syscalls-vs-speed.gp - system calls per MiB copied (log x) against
# throughput: one labelled point per strategy. Fewer, larger calls usually
# sit to the left; whether they also sit higher is the question.
#
# bench plot places each label where it overlaps no other label and no
# point (harness/plot/plot_labels.c), on the axes and plot area fixed here, and
# gives its position and alignment (-1 right, 0 centre, 1 left).
#
# Data (plot-syscalls-vs-speed.dat):
#   syscalls_per_MiB  median_MiB/s  label  label_x  label_y  label_align
# Variables: datafile, out, fmt, plotsdir, ttl, xmin, xmax, ymax.
load plotsdir.'/common.gp'
set title ttl
set logscale x 10
set xlabel 'system calls per MiB copied (log scale)'
set ylabel 'throughput (MiB/s, median)'
set xrange [xmin:xmax]
set yrange [0:ymax]
# the plot area bench plot assumes when it places the labels
set lmargin at screen 0.08
set rmargin at screen 0.97
set bmargin at screen 0.12
set tmargin at screen 0.88
plot datafile using 1:2 with points lt 1 ps 1.6 notitle, \
     '' using 4:5:($6 == 0 ? stringcolumn(3) : '') with labels center notitle, \
     '' using 4:5:($6 > 0 ? stringcolumn(3) : '') with labels left notitle, \
     '' using 4:5:($6 < 0 ? stringcolumn(3) : '') with labels right notitle
