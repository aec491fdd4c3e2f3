#!/bin/bash
# The deb's install as dpkg does it, in a mount namespace of its own (run it under `unshare --mount`): the packaged
# app at /opt/GPU Lab, the after-install script run with `configure`, `gpu-lab ARGS` run from PATH, then the
# after-remove script run with `remove`. /opt and the folders the scripts write into (/usr/bin, /etc/alternatives,
# /var/lib/dpkg/alternatives) are overlays that vanish with the namespace: the machine's own are never written.
# The app's binary, which cannot start here, is replaced by FAKE_BINARY, bound over it.
#
#   simulate-deb-install.sh APP_DIR AFTER_INSTALL AFTER_REMOVE FAKE_BINARY OUT_DIR [ARGS...]
#
# OUT_DIR receives: which (where PATH finds gpu-lab), resolves (the file it is), stdout and exit (of `gpu-lab
# ARGS`), left (what is at /usr/bin/gpu-lab after the removal: "nothing" or the link), the scripts' output, and the
# overlays' upper folders.
set -eu
app_dir=$1 after_install=$2 after_remove=$3 fake_binary=$4 out=$5
shift 5

scratch=$out/overlays
mount -t tmpfs gpu-lab-opt /opt
for dir in /usr/bin /etc/alternatives /var/lib/dpkg/alternatives; do
  mkdir -p "$scratch/upper$dir" "$scratch/work$dir"
  mount -t overlay overlay -o "lowerdir=$dir,upperdir=$scratch/upper$dir,workdir=$scratch/work$dir" "$dir"
done
mkdir '/opt/GPU Lab'
mount --bind "$app_dir" '/opt/GPU Lab'
mount --bind "$fake_binary" '/opt/GPU Lab/gpu-lab'

bash "$after_install" configure >"$out/after-install.log" 2>&1
export PATH=/usr/local/bin:/usr/bin:/bin
command -v gpu-lab >"$out/which"
readlink -f "$(command -v gpu-lab)" >"$out/resolves"
status=0
gpu-lab "$@" >"$out/stdout" || status=$?
echo "$status" >"$out/exit"

bash "$after_remove" remove >"$out/after-remove.log" 2>&1
if [ -e /usr/bin/gpu-lab ] || [ -L /usr/bin/gpu-lab ]; then readlink /usr/bin/gpu-lab >"$out/left"; else echo nothing >"$out/left"; fi
