#include "colliders/shape_mass.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace eddy {

namespace {

constexpr double kPi = 3.14159265358979323846;

using Matrix = std::array<std::array<double, 3>, 3>;

// the eigenvalues (diagonal of a) and eigenvectors (columns of v) of the symmetric a, by cyclic Jacobi
// rotations (Golub & Van Loan, "Matrix Computations", 8.5); a 3 x 3 converges in a handful of sweeps
void symmetricEigen(Matrix& a, Matrix& v) {
  v = Matrix{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (int sweep = 0; sweep < 50; ++sweep) {
    double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    double scale = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-30 * scale || off == 0) return;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0) continue;
        double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < 3; ++k) {  // a <- a J (columns p, q)
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // a <- J^T a (rows p, q)
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

// the unit quaternion of the rotation matrix r (columns: the rotated axes), by its largest component
// (Shepperd, "Quaternion from rotation matrix", J. Guidance and Control 1, 1978)
Quat quatFromMatrix(const Matrix& r) {
  double tr = r[0][0] + r[1][1] + r[2][2];
  double w, x, y, z;
  if (tr > 0) {
    double s = 2 * std::sqrt(tr + 1);
    w = s / 4, x = (r[2][1] - r[1][2]) / s, y = (r[0][2] - r[2][0]) / s, z = (r[1][0] - r[0][1]) / s;
  } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
    double s = 2 * std::sqrt(1 + r[0][0] - r[1][1] - r[2][2]);
    w = (r[2][1] - r[1][2]) / s, x = s / 4, y = (r[0][1] + r[1][0]) / s, z = (r[0][2] + r[2][0]) / s;
  } else if (r[1][1] > r[2][2]) {
    double s = 2 * std::sqrt(1 + r[1][1] - r[0][0] - r[2][2]);
    w = (r[0][2] - r[2][0]) / s, x = (r[0][1] + r[1][0]) / s, y = s / 4, z = (r[1][2] + r[2][1]) / s;
  } else {
    double s = 2 * std::sqrt(1 + r[2][2] - r[0][0] - r[1][1]);
    w = (r[1][0] - r[0][1]) / s, x = (r[0][2] + r[2][0]) / s, y = (r[1][2] + r[2][1]) / s, z = s / 4;
  }
  double n = std::sqrt(w * w + x * x + y * y + z * z);
  return {Real(w / n), Real(x / n), Real(y / n), Real(z / n)};
}

// the principal moments and axes of the inertia tensor `inertia` (per unit density) into m
void principalAxes(Matrix inertia, ShapeMass& m) {
  Matrix axes;
  symmetricEigen(inertia, axes);
  // a proper rotation: turn the third axis where the eigenvectors came out left-handed
  double det = axes[0][0] * (axes[1][1] * axes[2][2] - axes[1][2] * axes[2][1]) -
               axes[0][1] * (axes[1][0] * axes[2][2] - axes[1][2] * axes[2][0]) +
               axes[0][2] * (axes[1][0] * axes[2][1] - axes[1][1] * axes[2][0]);
  if (det < 0)
    for (int k = 0; k < 3; ++k) axes[k][2] = -axes[k][2];
  m.moments = {Real(inertia[0][0]), Real(inertia[1][1]), Real(inertia[2][2])};
  m.principal = quatFromMatrix(axes);
}

}  // namespace

ShapeMass solidMass(const ShapeDesc& shape) {
  ShapeMass m;
  const double r = shape.radius, h = shape.halfHeight;
  if (shape.type == "box") {
    const Vec3 e = shape.halfExtents;
    m.volume = 8.0 * e.x * e.y * e.z;
    const double x2 = double(e.x) * e.x, y2 = double(e.y) * e.y, z2 = double(e.z) * e.z;
    m.moments = {Real(m.volume * (y2 + z2) / 3), Real(m.volume * (x2 + z2) / 3),
                 Real(m.volume * (x2 + y2) / 3)};
    for (int k = 0; k < 8; ++k)
      m.samples.push_back({k & 1 ? e.x : -e.x, k & 2 ? e.y : -e.y, k & 4 ? e.z : -e.z});
    m.reach = length(e);
  } else if (shape.type == "sphere") {
    m.volume = 4.0 / 3 * kPi * r * r * r;
    m.moments = Vec3{1, 1, 1} * Real(0.4 * m.volume * r * r);
    m.samples = {Vec3{}};
    m.sampleRadius = shape.radius;
    m.reach = shape.radius;
  } else if (shape.type == "capsule") {
    // a cylinder of length 2h and two half balls whose centres of mass lie 3r/8 beyond its ends
    const double cylinder = kPi * r * r * 2 * h, ball = 4.0 / 3 * kPi * r * r * r;
    m.volume = cylinder + ball;
    const double across = cylinder * (r * r / 4 + h * h / 3) + ball * (0.4 * r * r + h * h + 0.75 * h * r);
    m.moments = {Real(across), Real(cylinder * r * r / 2 + ball * 0.4 * r * r), Real(across)};
    m.samples = {Vec3{0, -shape.halfHeight, 0}, Vec3{0, shape.halfHeight, 0}};
    m.sampleRadius = shape.radius;
    m.reach = shape.halfHeight + shape.radius;
  } else if (shape.type == "cylinder") {
    m.volume = kPi * r * r * 2 * h;
    const double across = m.volume * (r * r / 4 + h * h / 3);
    m.moments = {Real(across), Real(m.volume * r * r / 2), Real(across)};
    // six points on each rim, the second rim's turned by 30 degrees, so that a cylinder standing on a cap
    // rests on six of them (one on its side rests on its rims' lowest points, which the walls add)
    for (int k = 0; k < 12; ++k) {
      double angle = kPi / 3 * (k % 6) + (k < 6 ? 0 : kPi / 6);
      m.samples.push_back({Real(r * std::cos(angle)), k < 6 ? -shape.halfHeight : shape.halfHeight,
                           Real(r * std::sin(angle))});
    }
    m.reach = Real(std::sqrt(r * r + h * h));
  }
  return m;
}

ShapeMass meshMass(const TriangleMesh& mesh) {
  ShapeMass m;
  if (mesh.triangles.empty()) return m;
  // about a point inside the mesh's box, which keeps the sums' cancellation small
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (const auto& t : mesh.triangles)
    for (std::uint32_t v : t) {
      const Vec3 p = mesh.vertices[v];
      for (int k = 0; k < 3; ++k)
        lo[k] = std::min(lo[k], double((&p.x)[k])), hi[k] = std::max(hi[k], double((&p.x)[k]));
    }
  const double o[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
  double volume = 0, first[3] = {0, 0, 0};
  Matrix cov{};
  for (const auto& t : mesh.triangles) {
    double p[3][3];  // p[corner][axis], from o
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) p[c][k] = double((&mesh.vertices[t[std::size_t(c)]].x)[k]) - o[k];
    const double det = p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
                       p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                       p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
    volume += det / 6;
    for (int k = 0; k < 3; ++k) first[k] += det / 24 * (p[0][k] + p[1][k] + p[2][k]);
    // det A C0 A^T with C0 = (1 + I) / 120 for the unit tetrahedron: (sum_c p_c)(sum_c p_c)^T + sum_c p_c
    // p_c^T
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = (p[0][i] + p[1][i] + p[2][i]) * (p[0][j] + p[1][j] + p[2][j]);
        s += p[0][i] * p[0][j] + p[1][i] * p[1][j] + p[2][i] * p[2][j];
        cov[i][j] += det / 120 * s;
      }
  }
  if (volume < 0) {  // wound inward: every integral comes out negated
    volume = -volume;
    for (int i = 0; i < 3; ++i) {
      first[i] = -first[i];
      for (int j = 0; j < 3; ++j) cov[i][j] = -cov[i][j];
    }
  }
  m.volume = volume;
  if (!(volume > 0)) return m;
  const double c[3] = {first[0] / volume, first[1] / volume, first[2] / volume};
  m.centre = {Real(c[0] + o[0]), Real(c[1] + o[1]), Real(c[2] + o[2])};
  // the covariance about the centre, and the inertia tensor trace(C) 1 - C
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) cov[i][j] -= volume * c[i] * c[j];
  const double trace = cov[0][0] + cov[1][1] + cov[2][2];
  Matrix inertia;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) inertia[i][j] = (i == j ? trace : 0) - cov[i][j];
  principalAxes(inertia, m);
  // the samples: spread by taking, again and again, the vertex farthest from those taken
  std::vector<Vec3> used;
  for (const auto& t : mesh.triangles)
    for (std::uint32_t v : t) used.push_back(mesh.vertices[v]);
  std::sort(used.begin(), used.end(), [](Vec3 a, Vec3 b) {
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
  });
  used.erase(std::unique(used.begin(), used.end(),
                         [](Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }),
             used.end());
  std::vector<double> nearest(used.size());
  std::size_t next = 0;
  for (std::size_t k = 0; k < used.size(); ++k) {
    nearest[k] = lengthSquared(used[k] - m.centre);
    if (nearest[k] > nearest[next]) next = k;
  }
  m.reach = Real(std::sqrt(nearest[next]));
  while (int(m.samples.size()) < kMostShapeSamples && int(m.samples.size()) < int(used.size())) {
    const Vec3 taken = used[next];
    m.samples.push_back(taken);
    double farthest = -1;
    for (std::size_t k = 0; k < used.size(); ++k) {
      nearest[k] = std::min(nearest[k], double(lengthSquared(used[k] - taken)));
      if (nearest[k] > farthest) farthest = nearest[k], next = k;
    }
  }
  return m;
}

}  // namespace eddy
