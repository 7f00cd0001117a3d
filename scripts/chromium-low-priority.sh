#!/bin/sh
# Debian's Chromium with a small CPU share, for the journey that runs eight pages on a 2-core machine:
# the Cohort server and Janus under test stay responsive and the pages get what is left. Chromium
# run as root sets its own processes' nice values, so a cgroup does it (the v1 cpu controller, which
# root can write); where there is none, Chromium runs as it is.
group=/sys/fs/cgroup/cpu/cohort-e2e-chromium
if mkdir -p "$group" 2>/dev/null && echo 128 > "$group/cpu.shares" 2>/dev/null; then
  echo $$ > "$group/cgroup.procs" 2>/dev/null || true
fi
exec "${CHROMIUM_PATH:-/usr/bin/chromium}" "$@"
