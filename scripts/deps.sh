#!/bin/sh
# Install the Debian packages Clockwork needs to build, test and run.
# As root: installs what is missing with apt-get.  Otherwise: prints the
# exact command to run.
PKGS="build-essential pkg-config clang libclang-rt-14-dev libvulkan-dev mesa-vulkan-drivers
libshaderc-dev glslc spirv-tools spirv-headers libpfm4-dev libjansson-dev libcmocka-dev
libncurses-dev libcapstone-dev libopenblas-dev vulkan-tools tmux valgrind python3
slurmctld slurmd slurm-client munge openmpi-bin python3-jsonschema"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || exit 1
    apt-get install -y -qq --no-install-recommends $missing || exit 1
else
    echo "deps: missing packages:$missing" >&2
    echo "deps: run as root:  apt-get install -y$missing" >&2
    exit 1
fi
