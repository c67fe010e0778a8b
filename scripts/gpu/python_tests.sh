#!/usr/bin/env bash
# The Python module on the GPU machine: builds eddy._eddy there with its own Python and pybind11 (a module
# is tied to one Python version) over the CUDA engine library carried by scripts/gpu/carry.sh, then runs the
# pytest suite (tests/python: its gpu cases, PyTorch and CuPy reading the engine's memory, run there) into
# $OUT/python_tests.txt, and, where asked, bench/python_realtime.py into $OUT/python_realtime.txt: the
# default dam break on the GPU and on the machine's CPU, and the dam break at 1M particles read as a torch
# tensor every frame.
# usage: bash scripts/gpu/python_tests.sh [bench]
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
[ -f .carry/libeddy.a ] || tar xJf .carry/engine.tar.xz -C .carry
package=.carry/python/eddy
mkdir -p "$package"
cp python/eddy/__init__.py "$package/"
suffix=$(python3 -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
# the shared libraries libeddy.a needs (oneTBB, OpenVDB), as carried; the renderer's (libeddy_render.a:
# EGL and OpenGL from the GL loaders env.sh installed, libpng carried) where it travelled too
libs=$(ls .carry/lib/libtbb.so.* .carry/lib/libopenvdb.so.* 2>/dev/null | tr '\n' ' ')
render=()
if [ -f .carry/libeddy_render.a ]; then
  gl=/usr/lib/x86_64-linux-gnu
  render=(-DEDDY_WITH_RENDER=1 .carry/libeddy_render.a $gl/libEGL.so.1 $gl/libOpenGL.so.0 $(ls .carry/lib/libpng16.so.*))
fi
g++ -O2 -std=c++20 -shared -fPIC -fvisibility=hidden -Iinclude $(python3 -m pybind11 --includes) \
    python/bindings/module.cpp python/bindings/particle_arrays.cpp -o "$package/_eddy$suffix" \
    "${render[@]}" .carry/libeddy.a $libs -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread \
    -Wl,-rpath,"$PWD/.carry/lib" 2>&1 | tail -20
[ -f "$package/_eddy$suffix" ] || { echo "the Python module did not build"; exit 1; }
export PYTHONPATH="$PWD/.carry/python" EDDY_CLI="$PWD/.carry/bin/eddy" PYTHONUNBUFFERED=1
python3 -c "import eddy, numpy, pybind11; print('eddy', eddy.__version__, 'numpy', numpy.__version__, 'pybind11', pybind11.__version__, 'GPU', eddy.cuda_device_name())"
python3 -m pytest -q -p no:cacheprovider tests/python 2>&1 | tee "$out/python_tests.txt" | tail -30
rc=${PIPESTATUS[0]}
if [ "${1:-}" = bench ]; then
  {
    python3 bench/python_realtime.py --eddy "$EDDY_CLI" --backend cuda --rounds 7
    python3 bench/python_realtime.py --eddy "$EDDY_CLI" --backend cpu --rounds 5
    python3 bench/python_realtime.py --eddy "$EDDY_CLI" --backend cuda --rounds 5 --torch \
      --set fluid.spacing=0.0052 --set time.frames=60
  } 2>&1 | tee "$out/python_realtime.txt"
fi
exit $rc
