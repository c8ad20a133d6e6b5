#!/bin/sh
# The one device command: sets up the runtime on a bare GPU machine and runs
# bench/gpu/h200.sh from the prepared tree.  Run from the repository root
# with .gl (the Vulkan loader and GL vendor-neutral libraries, Debian 12
# packages), .rt (Clockwork's runtime libraries, Debian 12 packages) and
# the prepared tree DEV (default .dev: sh bench/gpu/prepare.sh build DEV)
# carried; the device machine gets the checkout the session started in, so
# a tree prepared elsewhere travels as an ignored folder of it:
#     OUT=DIR sh bench/gpu/device.sh
#     DEV=.dev/measure OUT=DIR sh .dev/measure/bench/gpu/device.sh
# The loader goes to / (as the machine's notes say); the other packages to
# /tmp/cw-rt, seen only by clockwork (through a wrapper), so that the
# machine's own tools keep their libraries.
set -u
DEV=${DEV:-.dev}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
RT=/tmp/cw-rt
mkdir -p "$RT"
for f in .rt/*.deb; do dpkg -x "$f" "$RT"; done
ICD=
for d in /usr/share/vulkan/icd.d /etc/vulkan/icd.d; do
    ls "$d"/nvidia*.json > /dev/null 2>&1 && ICD=$d
done
echo "device.sh: NVIDIA Vulkan ICD in ${ICD:-no system folder}"
if [ -z "$ICD" ]; then
    ls /usr/local/nvidia/share/vulkan/icd.d 2>&1
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
HERE=$(pwd)
cat > "$RT/clockwork" <<W
#!/bin/sh
LD_LIBRARY_PATH=$RT/usr/lib/x86_64-linux-gnu:$RT/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} exec $HERE/$DEV/build/clockwork "\$@"
W
chmod +x "$RT/clockwork"
"$RT/clockwork" --version || { echo "device.sh: clockwork does not start here"; exit 1; }
cd "$DEV" && CW=$RT/clockwork OUT=${OUT:-/tmp/out} sh bench/gpu/h200.sh
