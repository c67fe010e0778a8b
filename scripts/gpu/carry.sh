#!/usr/bin/env bash
# Here, on the build machine, after a CUDA build into build/: packs it for the GPU machine into .carry/ (ignored
# by git; both .carry and .gl travel to the GPU machine): bins.tar.xz with eddy and eddy_gpu_tests;
# engine.tar.xz with libeddy.a (the Python module is built there, against that machine's Python);
# libs.tar.xz with the shared libraries they link that the GPU machine's Ubuntu lacks (oneTBB, libpng, GLFW and
# X11, OpenVDB and its codecs; the GL loaders come as Debian packages in .gl/ instead, and the C/C++ runtimes
# and compression libraries the machine has are left out, since its own tools load them too); meshes/ and
# validation/ with the shared meshes and measurements, which do not travel on their own. scripts/gpu/env.sh
# unpacks it there.
# usage: bash scripts/gpu/carry.sh [BASE_BIN_DIR]
#   BASE_BIN_DIR: a baseline build's bin/ (absolute, or from the repository root); its eddy travels as
#   .carry/base.tar.xz, and scripts/gpu/bench.sh then alternates the two builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .carry
mkdir -p .carry/lib .carry/meshes
tar cJf .carry/bins.tar.xz -C build/bin eddy -C ../tests eddy_gpu_tests
# the engine library, for the Python module that scripts/gpu/python_tests.sh builds there
tar cJf .carry/engine.tar.xz -C build/src libeddy.a libeddy_render.a
if [ -n "${1:-}" ]; then  # the baseline build, unpacked as .carry/bin/eddy_base
  tmp=$(mktemp -d) && cp "$1/eddy" "$tmp/eddy_base" && tar cJf .carry/base.tar.xz -C "$tmp" eddy_base && rm -rf "$tmp"
fi
skip='linux-vdso|ld-linux|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libpthread|libdl\.so|librt\.so|libEGL|libOpenGL|libGL|libz\.so|liblzma|libzstd|libbz2|libbsd|libmd\.so'
for lib in $( (ldd build/bin/eddy; ldd build/tests/eddy_gpu_tests) | awk '$3 ~ /^\// {print $3}' | sort -u); do
  [[ $lib =~ $skip ]] || cp -L "$lib" .carry/lib/
done
tar cJf .carry/libs.tar.xz -C .carry lib
rm -rf .carry/lib
cp ../shared/data/meshes/*.obj .carry/meshes/ 2>/dev/null || echo "no shared meshes beside the checkout"
mkdir -p .carry/validation
cp ../shared/data/validation/*.csv .carry/validation/ 2>/dev/null || echo "no validation data beside the checkout"
if [ ! -d .gl ]; then  # the GL loader packages the GPU machine lacks: libglvnd's EGL and OpenGL for amd64
  mkdir -p .gl /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update >/dev/null
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
fi
du -sh .carry .gl
