#!/bin/sh
# gpuprio-broker end to end (suite 75-broker), TAP on stdout: Debian's
# dbus-daemon and polkitd, the broker as installed (tests/broker-root.sh),
# users gpu (1000) and other (2000). The guest has no logind, so no one
# has an active session: the rules below stand in for the session
# defaults of the policy file. gpu may raise to the high band and to
# realtime; other to the high band only.
# shellcheck source=tests/lib/tap.sh
. /tests/lib/tap.sh
# shellcheck source=tests/guest/simgpu-load.sh
. /tests/simgpu-load.sh

# Debian's bus tools and the dynamic gpunice (with --ask) live in /usr/bin.
PATH=/usr/bin:$PATH
BROKER=/usr/sbin/gpuprio-broker
CLIENT=/tests/bin/broker_client
GPUNICE=/usr/bin/gpunice
ERR=org.gpunice.Broker1.Error
tmp=$(mktemp -d)
bg_pids=

cleanup() {
	# shellcheck disable=SC2086 # a list of PIDs
	[ -n "$bg_pids" ] && kill $bg_pids 2>/dev/null
	wait 2>/dev/null
}
trap cleanup EXIT

# as USER COMMAND...: run COMMAND as USER, keeping the PID a background
# job reports (busybox's su execs the shell, which execs the command).
cat >"$tmp/as" <<'AS'
#!/bin/sh
u=$1
shift
exec su -s /bin/sh -c 'exec "$@"' -- "$u" sh "$@"
AS
chmod 755 "$tmp/as"
as="$tmp/as"

# has_name NAME: whether NAME has an owner on the system bus.
has_name() {
	dbus-send --system --print-reply --dest=org.freedesktop.DBus \
		/org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \
		"string:$1" 2>/dev/null | grep -q 'boolean true'
}

wait_name() {
	i=0
	while ! has_name "$1"; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.1
	done
}

# start_broker OPTION...: the broker alone on its name, with these limits.
start_broker() {
	$BROKER "$@" >>"$tmp/broker.log" 2>&1 &
	broker_pid=$!
	wait_name org.gpunice.Broker1
}

stop_broker() {
	kill "$broker_pid" 2>/dev/null
	wait "$broker_pid" 2>/dev/null
	i=0
	while has_name org.gpunice.Broker1 && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# expect NAME FILE PATTERN: ok when a line of FILE matches PATTERN (a
# fixed string); the file as diagnostics otherwise.
expect() {
	grep -qF -- "$3" "$2"
	tap_result $? "$1" "$2"
}

# value TID: what /proc says of a thread, as broker_client prints it.
gpu_nice_of() {
	sed -n 's/^best-effort //p; s/^realtime /rt:/p; s/^none.*/none/p' \
		"/proc/$1/gpu_nice"
}

if [ ! -x $BROKER ] || [ ! -x /usr/bin/dbus-daemon ]; then
	not_ok "the initramfs has the broker and dbus-daemon (tests/broker-root.sh)"
	tap_done
	exit 1
fi

# --- the bus, polkit and its rules -----------------------------------------
mkdir -p /run/dbus /etc/polkit-1/rules.d
cat >/etc/polkit-1/rules.d/50-gpuprio-test.rules <<'RULES'
// The test's stand-in for an active local session (no logind here).
polkit.addRule(function(action, subject) {
    if (action.id == "org.gpunice.broker.raise-high" &&
        (subject.user == "gpu" || subject.user == "other"))
        return polkit.Result.YES;
    if (action.id == "org.gpunice.broker.raise-realtime") {
        if (subject.user == "gpu")
            return polkit.Result.YES;
        return polkit.Result.NO;
    }
});
RULES
chmod 644 /etc/polkit-1/rules.d/50-gpuprio-test.rules
dbus-daemon --system >"$tmp/dbus.log" 2>&1
tap_result $? "dbus-daemon --system starts" "$tmp/dbus.log"
bg_pids="$(cat /run/dbus/pid 2>/dev/null)"
/usr/lib/polkit-1/polkitd --no-debug >"$tmp/polkitd.log" 2>&1 &
bg_pids="$bg_pids $!"
wait_name org.freedesktop.PolicyKit1
tap_result $? "polkitd serves org.freedesktop.PolicyKit1" "$tmp/polkitd.log"

# --- the broker's privileges ------------------------------------------------
# Started by root with every capability, it keeps CAP_SYS_NICE (23)
# effective and CAP_SYS_PTRACE (19) permitted, nothing else anywhere.
start_broker --rate-limit=1000/1000 --max-threads=2 --nice-ceiling=-10 \
	--rt-ceiling=3
tap_result $? "the broker serves org.gpunice.Broker1" "$tmp/broker.log"
grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs)' \
	"/proc/$broker_pid/status" >"$tmp/caps"
cat >"$tmp/caps.want" <<'CAPS'
CapInh:	0000000000000000
CapPrm:	0000000000880000
CapEff:	0000000000800000
CapBnd:	0000000000880000
CapAmb:	0000000000000000
NoNewPrivs:	1
CAPS
diff "$tmp/caps.want" "$tmp/caps" >"$tmp/caps.diff"
tap_result $? "the broker holds CAP_SYS_NICE, CAP_SYS_PTRACE permitted only, no_new_privs" \
	"$tmp/caps.diff"

# --- granted ----------------------------------------------------------------
$as gpu $CLIENT show self raise self -5 show self >"$tmp/out" 2>&1
expect "granted: gpu raises its own thread to nice -5" "$tmp/out" \
	"raise self -5: ok"
expect "granted: the thread is at nice -5 (/proc)" "$tmp/out" \
	"show self: -5"
$as gpu $CLIENT raise self rt:5 show self >"$tmp/out" 2>&1
expect "granted: realtime level 5, where the rules allow gpu" "$tmp/out" \
	"show self: rt:5"
$as gpu $GPUNICE --ask -n -7 cat /proc/self/gpu_nice >"$tmp/out" 2>&1
expect "gpunice --ask -n -7 runs the command at nice -7" "$tmp/out" \
	"best-effort -7"
$as gpu $GPUNICE --ask -c realtime -n 4 cat /proc/self/gpu_nice \
	>"$tmp/out" 2>&1
expect "gpunice --ask -c realtime -n 4 runs the command at level 4" \
	"$tmp/out" "realtime 4"

# --- the examples of docs/examples ------------------------------------------
PATH=/usr/local/bin:$PATH $as gpu gpunice-gamemode cat \
	/proc/self/gpu_nice >"$tmp/out" 2>&1
expect "docs/examples: gpunice-gamemode runs the game at GPU nice -10" \
	"$tmp/out" "best-effort -10"
# compositor-boost.conf's command line, with the example's own polkit
# rules for its user: refused before they are installed, granted after.
ex=/tests/examples
cmd=$(sed -n 's|^ExecStart=\(gpunice .*\) /usr/local/bin/my-kiosk-app$|\1|p' \
	$ex/compositor-boost.conf)
grep -q '^kiosk:' /etc/passwd ||
	echo 'kiosk:x:3000:3000:kiosk:/tmp:/bin/sh' >>/etc/passwd
# shellcheck disable=SC2086 # the command line of the drop-in, split
$as kiosk $cmd cat /proc/self/gpu_nice >"$tmp/out" 2>&1
grep -q NotAuthorized "$tmp/out" && ! grep -q "best-effort -5" "$tmp/out"
tap_result $? "docs/examples: compositor-boost.conf's service, without its rules: refused, runs unraised (-t)" \
	"$tmp/out"
cp $ex/compositor-boost.rules /etc/polkit-1/rules.d/50-compositor-boost.rules
chmod 644 /etc/polkit-1/rules.d/50-compositor-boost.rules
# polkitd reloads its rules when the folder changes.
i=0
while :; do
	# shellcheck disable=SC2086
	$as kiosk $cmd cat /proc/self/gpu_nice \
		>"$tmp/out" 2>&1
	grep -q "best-effort -5" "$tmp/out" && break
	i=$((i + 1))
	[ $i -ge 20 ] && break
	sleep 0.5
done
expect "docs/examples: with compositor-boost.rules, the service runs at GPU nice -5" \
	"$tmp/out" "best-effort -5"

# --- refused where the rules deny -------------------------------------------
$as other $CLIENT raise self rt:5 show self >"$tmp/out" 2>&1
expect "refused: the rules deny realtime to other (NotAuthorized)" \
	"$tmp/out" "raise self rt:5: $ERR.NotAuthorized"
! grep -q "show self: rt:5" "$tmp/out"
tap_result $? "refused: other's thread stays below realtime" "$tmp/out"
$as other $GPUNICE --ask -c realtime -n 5 true >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "NotAuthorized" "$tmp/out"
tap_result $? "gpunice --ask says why and exits 1 when refused (rc $rc)" \
	"$tmp/out"

# --- refused for a thread of another process --------------------------------
$as gpu sleep 60 &
victim=$!
bg_pids="$bg_pids $victim"
sleep 0.3
before=$(gpu_nice_of $victim)
$as other $CLIENT raise pid:$victim -5 >"$tmp/out" 2>&1
expect "refused: other asks for gpu's thread (NotOwnThread)" "$tmp/out" \
	"raise pid:$victim -5: $ERR.NotOwnThread"
$as gpu $CLIENT raise pid:$victim -5 >"$tmp/out" 2>&1
expect "refused: gpu asks for a thread of another of its processes (NotOwnThread)" \
	"$tmp/out" "raise pid:$victim -5: $ERR.NotOwnThread"
$CLIENT raise pid:$victim -5 >"$tmp/out" 2>&1
expect "refused: even root's request for another process (NotOwnThread)" \
	"$tmp/out" "raise pid:$victim -5: $ERR.NotOwnThread"
after=$(gpu_nice_of $victim)
[ "$before" = "$after" ] && [ "$after" != "-5" ]
tap_result $? "refused: the other process's priority is unchanged ($before -> $after)"
$as gpu $CLIENT raise proc -5 >"$tmp/out" 2>&1
expect "refused: a pidfd of a process, not a thread (InvalidArgs)" \
	"$tmp/out" "raise proc -5: org.freedesktop.DBus.Error.InvalidArgs"

# --- the ceilings -------------------------------------------------------------
$as gpu $CLIENT raise self -15 raise self rt:1 show self >"$tmp/out" 2>&1
expect "refused: nice -15 past the nice ceiling -10 (AboveCeiling)" \
	"$tmp/out" "raise self -15: $ERR.AboveCeiling"
expect "refused: realtime 1 past the realtime ceiling 3 (AboveCeiling)" \
	"$tmp/out" "raise self rt:1: $ERR.AboveCeiling"
! grep -qE "show self: (-15|rt:1)" "$tmp/out"
tap_result $? "refused: the thread keeps its value" "$tmp/out"
$as gpu $CLIENT spawn 3 raise t1 -5 raise t2 -5 raise t3 -5 show t3 \
	drop t1 raise t3 -5 show t3 >"$tmp/out" 2>&1
expect "the per-user ceiling: two threads raised" "$tmp/out" \
	"raise t2 -5: ok"
expect "refused: a third thread past --max-threads=2 (TooManyThreads)" \
	"$tmp/out" "raise t3 -5: $ERR.TooManyThreads"
sed -n '/raise t3 -5: org/,/drop t1/p' "$tmp/out" | grep -q "show t3: -5"
tap_result $((!$?)) "refused: the third thread is not raised" "$tmp/out"
grep -A1 "drop t1: ok" "$tmp/out" | grep -q "raise t3 -5: ok"
tap_result $? "after a drop, the third thread gets its raise" "$tmp/out"

# --- drop-back ----------------------------------------------------------------
$as gpu $CLIENT set self 3 raise self -5 raise self -8 show self drop self \
	show self drop self >"$tmp/out" 2>&1
expect "drop: raised to -8 first" "$tmp/out" "show self: -8"
sed -n '/drop self: ok/,$p' "$tmp/out" | grep -q "show self: 3"
tap_result $? "drop gives back what the thread had before the first raise (nice 3)" \
	"$tmp/out"
expect "drop of a thread not raised is refused (NotRaised)" "$tmp/out" \
	"drop self: $ERR.NotRaised"
stop_broker

# --- the rate limit -------------------------------------------------------------
start_broker --rate-limit=3/60000
$as gpu $CLIENT raise self -5 raise self -5 raise self -5 raise self -5 \
	>"$tmp/out" 2>&1
[ "$(grep -c ': ok$' "$tmp/out")" -eq 3 ]
tap_result $? "the rate limit: three requests of gpu granted" "$tmp/out"
expect "refused: the fourth in the interval (RateLimited)" "$tmp/out" \
	"raise self -5: $ERR.RateLimited"
$as other $CLIENT raise self -5 >"$tmp/out" 2>&1
expect "the rate limit is per user: other is granted" "$tmp/out" \
	"raise self -5: ok"
stop_broker

# --- the watchdog ------------------------------------------------------------------
# A frame loop (6 % busy) and a hog (every job queued back to back), both
# raised to -10 through gpunice --ask. The hog must be demoted within the
# bound the broker states (window + 2 periods) plus a job (10 ms) and this
# guest's slack; the frame loop with it, as everything the broker raised.
start_broker --watchdog-window=500 --watchdog-period=50 --watchdog-busy=80
bound=$(dbus-send --system --print-reply --dest=org.gpunice.Broker1 \
	/org/gpunice/Broker1 org.freedesktop.DBus.Properties.Get \
	string:org.gpunice.Broker1 string:WatchdogBoundMSec |
	sed -n 's/.*uint64 //p')
[ "$bound" = 600 ]
tap_result $? "WatchdogBoundMSec is window + 2 periods (600, reads '$bound')"
if load_simgpu 2; then
	# A desktop session's user may open the render node (logind gives
	# the seat's user access); the guest has no logind.
	chmod 666 /dev/dri/renderD*
	$as gpu $GPUNICE --ask -n -10 /tests/bin/gpuload --fps 30 --job-us 2000 \
		--seconds 30 >"$tmp/frame" 2>&1 &
	frame=$!
	bg_pids="$bg_pids $frame"
	$CLIENT watch $frame -10 1500 >"$tmp/out" 2>&1
	expect "the watchdog leaves a raised client at 6 % busy alone" \
		"$tmp/out" "still raised after 1500 ms"
	$as gpu $GPUNICE --ask -n -10 /tests/bin/gpuload --hog --job-ms 10 \
		--depth 4 --seconds 30 >"$tmp/hog" 2>&1 &
	hog=$!
	bg_pids="$bg_pids $hog"
	$CLIENT watch $hog -10 10000 >"$tmp/out" 2>&1
	ms=$(sed -n 's/.*raised_ms=\([0-9]*\).*/\1/p' "$tmp/out")
	echo "# watchdog: the hog was demoted ${ms:-?} ms after its raise (bound $bound ms)"
	[ -n "$ms" ] && [ "$ms" -le $((bound + 400)) ]
	tap_result $? "the watchdog demotes a hog within its bound (${ms:-?} ms, bound $bound + 400)" \
		"$tmp/out" "$tmp/hog" "$tmp/broker.log"
	v=$(gpu_nice_of $frame)
	[ "$v" = none ]
	tap_result $? "the watchdog demotes everything it raised: the frame loop back to none too ('$v')" \
		"$tmp/broker.log" "$tmp/frame"
	grep -q "kept engine .* busy over 500 ms" "$tmp/broker.log"
	tap_result $? "the broker's log says which process hogged which engine" \
		"$tmp/broker.log"
	kill $hog $frame 2>/dev/null
	wait $hog $frame 2>/dev/null
else
	not_ok "simgpu loads for the watchdog's hog"
fi
stop_broker
tap_done
