#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages eddy needs, where missing. CUDA is optional and not installed here:
# with a toolkit in /usr/local/cuda (or nvcc on PATH) the CUDA backend is built as well. OpenVDB
# (libopenvdb-dev) is optional too (EDDY_OPENVDB=AUTO builds with it where found): .vdb level-set output and
# OpenVDB's reference surface for benchmarks. Debian's libopenvdb-dev lacks two of its own dependencies: its
# headers include Boost and its FindOpenVDB.cmake asks for Boost iostreams and zlib, hence the two after it.
# The renderer (src/render) draws with OpenGL through EGL and writes PNGs: the EGL and GL headers and GLVND's
# loaders, libpng, and Mesa's EGL and llvmpipe driver so that machines without a GPU draw too; ffmpeg
# turns its pictures into videos (`eddy render --video`), which eddy runs as a program, not a library.
# The viewer (`eddy view`) opens its window with GLFW and draws its panel with Dear ImGui; Xvfb (with xauth,
# which xvfb-run needs) gives its test a display on machines without one. clang-format checks the sources'
# format in CI (scripts/check_format.sh). The Python module (python/) builds with pybind11 against Python's
# headers; its tests (tests/python) need numpy and pytest.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config libtbb-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libtinyobjloader-dev
          libopenvdb-dev libboost-iostreams-dev zlib1g-dev
          libegl-dev libopengl-dev libgl-dev libpng-dev libegl-mesa0 libgl1-mesa-dri ffmpeg
          libglfw3-dev libimgui-dev xvfb xauth clang-format python3
          python3-dev pybind11-dev python3-numpy python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "eddy setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
