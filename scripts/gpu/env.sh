# shellcheck shell=bash
# Sourced by the scripts in scripts/gpu/ on the GPU machine, over a build packed here by scripts/gpu/carry.sh
# and carried there in .carry/ (and .gl/): the repository root as working directory, the results folder $out
# ($OUT, or ./gpu-results), the carried binaries and libraries unpacked, a baseline build in .carry/base.tar.xz
# unpacked as .carry/bin/eddy_base where one was carried ($builds: "eddy_base eddy", else "eddy"), the GL
# loaders of .gl/ installed where carried, the shared meshes and measurements linked where the scenes look for
# them, and $ncu where Nsight Compute is installed. Writes the card, its memory and driver to $out/gpu.txt.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
out=${OUT:-gpu-results}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
export EDDY_SOURCE_DIR="$PWD"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -f .carry/bins.tar.xz ] && [ ! -x .carry/bin/eddy ] && mkdir -p .carry/bin && tar xJf .carry/bins.tar.xz -C .carry/bin
[ -f .carry/libs.tar.xz ] && [ ! -d .carry/lib ] && tar xJf .carry/libs.tar.xz -C .carry
builds="eddy"
if [ -f .carry/base.tar.xz ]; then
  [ -x .carry/bin/eddy_base ] || tar xJf .carry/base.tar.xz -C .carry/bin
  builds="eddy_base eddy"
fi
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
eddy=./.carry/bin/eddy
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
true
