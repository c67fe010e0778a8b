# Sourced by the gpu_*.sh scripts (GPU machine, carried build in .carry/, packed by scripts/gpu_carry.sh):
# the repository root as working directory, the results folder $out, the carried binaries and libraries
# unpacked, the GL loaders of .gl/ installed where carried, and ncu where Nsight Compute is installed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -f .carry/bins.tar.xz ] && [ ! -x .carry/bin/eddy ] && mkdir -p .carry/bin && tar xJf .carry/bins.tar.xz -C .carry/bin
[ -f .carry/libs.tar.xz ] && [ ! -d .carry/lib ] && tar xJf .carry/libs.tar.xz -C .carry
if [ -d .gl ] && ! ldconfig -p | grep -q libEGL.so.1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# NVIDIA's EGL vendor file where the container keeps it
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -e ../shared/data/meshes ] || { mkdir -p ../shared/data && ln -sfn "$PWD/.carry/meshes" ../shared/data/meshes; }
[ -e ../shared/data/validation ] || [ ! -d .carry/validation ] ||
  { mkdir -p ../shared/data && ln -sfn "$PWD/.carry/validation" ../shared/data/validation; }
true
