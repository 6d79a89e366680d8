# shellcheck shell=sh
# The last step of make demo, sourced by demo.sh (its say/show/expect): a
# game next to a GPU hog on simgpu, the simulated GPU behind drm_sched. The
# frame loop runs throughout; the hog starts, then is lowered while it runs.
# Per-second figures go to the console as "@@DEMO-FPS" lines, from which
# tests/demo.sh draws the plot on the host.

# shellcheck source=tests/guest/simgpu-load.sh
. /tests/simgpu-load.sh

# fps_of <from> <to>: the per-second fps of the frame loop between two
# moments (seconds since it started), on one line.
fps_of()
{
	awk -v a="$1" -v b="$2" '/^gpuload: t=/ {
		split($2, t, "="); split($3, f, "=")
		if (t[2] > a && t[2] <= b) printf "%s ", f[2] }' /tmp/fg.out
}

# missed_of <from> <to>: frames missed in that span.
missed_of()
{
	awk -v a="$1" -v b="$2" '/^gpuload: t=/ {
		split($2, t, "="); split($4, m, "=")
		if (t[2] > a && t[2] <= b) n += m[2] } END { print n + 0 }' \
		/tmp/fg.out
}

# since: seconds since the frame loop started
since() { echo $(( $(gpuload --now) / 1000000 - fg_start_ms )) | \
	awk '{ printf "%.1f", $1 / 1000 }'; }

say "9. The effect: a game at 60 Hz next to a GPU hog, on simgpu (drm_sched)"
if ! load_simgpu 2 && [ ! -d /sys/module/simgpu ]; then
	echo "simgpu is not in this kernel or initramfs"
	expect "simgpu is there" false
else
	echo "\$ gpuload --fps 60 --job-us 2000 --seconds 22 --interval &"
	fg_start_ms=$(( $(gpuload --now) / 1000000 ))
	gpuload --fps 60 --job-us 2000 --seconds 22 --interval \
		>/tmp/fg.out 2>&1 &
	fg=$!
	sleep 4
	echo "  alone, fps each second: $(fps_of 0 4)"

	echo "\$ gpuload --hog --job-ms 4 --depth 4 &    # 4 ms jobs, back to back"
	t1=$(since)
	gpuload --hog --job-ms 4 --depth 4 >/tmp/hog.out 2>&1 &
	hog=$!
	kill -USR1 $fg
	sleep 8
	echo "  with the hog, fps each second: $(fps_of "$t1" 30)"
	before=$(missed_of "$t1" 30)

	t2=$(since)
	kill -USR1 $fg
	show "gpunice -p $hog -n 19"
	sleep 1
	show "grep -o 'prio=[a-z]*' /tmp/hog.out | tail -1"
	expect "the hog's jobs are now armed at drm_sched LOW" has "prio=low"
	wait $fg
	echo "  after gpunice, fps each second: $(fps_of "$t2" 30)"
	after=$(missed_of "$t2" 30)
	echo "  missed frames: $before in 8 s with the hog at defaults," \
		"$after in the 10 s after gpunice"
	expect "fewer missed frames once the hog is lowered" \
		[ "$after" -lt "$before" ]
	kill -TERM $hog
	wait $hog
	grep -E '^gpuload: (t=|mark=)' /tmp/fg.out |
		sed 's/^gpuload: /@@DEMO-FPS /'
fi
