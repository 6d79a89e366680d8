#!/bin/sh
# make demo, its last step as a plot: the frame loop's fps each second from
# the "@@DEMO-FPS" lines of the console, with the moments the hog started
# and gpunice lowered it marked, into <result dir>/effect.png.
#
# usage: demo-plot.sh <console.log> <result dir>
set -u
log=$1 results=$2
dat=$results/effect-fps.dat

tr -d '\r' < "$log" | sed -n 's/^@@DEMO-FPS t=\([0-9.]*\) fps=\([0-9.]*\).*/\1 \2/p' > "$dat"
marks=$(tr -d '\r' < "$log" | sed -n 's/^@@DEMO-FPS mark=[0-9]* t=\([0-9.]*\)/\1/p')
[ -s "$dat" ] || exit 0
if ! command -v gnuplot >/dev/null; then
	echo "  (no gnuplot: the fps plot is not drawn; data in $dat)"
	exit 0
fi
# shellcheck disable=SC2086 # two numbers, split on purpose
set -- $marks
hog=${1:-} nice=${2:-}
{
	echo "set terminal png size 900,420"
	echo "set output '$results/effect.png'"
	echo "set termoption noenhanced"
	echo "set title 'make demo: a 60 Hz frame loop with 2 ms jobs on simgpu (drm_sched)'"
	echo "set xlabel 'seconds'; set ylabel 'frames per second'"
	echo "set yrange [0:70]; set grid; unset key"
	[ -n "$hog" ] && echo "set arrow 1 from $hog, graph 0 to $hog, graph 1 nohead lc rgb 'orange'" &&
		echo "set label 1 'hog starts' at $hog, 8 offset 0.5,0"
	[ -n "$nice" ] && echo "set arrow 2 from $nice, graph 0 to $nice, graph 1 nohead lc rgb 'red'" &&
		echo "set label 2 'gpunice -p HOG -n 19' at $nice, 4 offset 0.5,0"
	echo "plot '$dat' using 1:2 with linespoints pt 7 lw 2"
} | gnuplot && echo "  plot: $results/effect.png (fps over time, the change marked)"
