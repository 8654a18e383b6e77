# common.gp - terminal, output and style shared by every chart.
#
# Loaded by each chart script. Variables set on the command line by
# `bench plot` (or by you, see docs/charts.md):
#   fmt    'png' or 'svg'
#   out    the output file
#   h      (optional) the picture height in pixels, set by the chart script
if (!exists("h")) h = 620
if (!exists("w")) w = 1000
if (fmt eq 'svg') {
	set terminal svg size w,h dynamic noenhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size w,h noenhanced font 'Sans,10' background rgb 'white'
}
set output out
set encoding utf8
set border 3
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set style fill solid 0.85 border rgb '#333333'
set key top right noopaque
set linetype 1 lc rgb '#4878a8' lw 2 pt 7 ps 1.2
set linetype 2 lc rgb '#e4803a' lw 2 pt 5 ps 1.2
set linetype 3 lc rgb '#5aa05a' lw 2 pt 9 ps 1.3
set linetype 4 lc rgb '#c44e52' lw 2 pt 11 ps 1.3
set linetype 5 lc rgb '#8172b2' lw 2 pt 13 ps 1.3
set linetype 6 lc rgb '#937860' lw 2 pt 7 ps 1.2
set linetype 7 lc rgb '#da8bc3' lw 2 pt 5 ps 1.2
set linetype 8 lc rgb '#8c8c8c' lw 2 pt 9 ps 1.3
set linetype cycle 8
