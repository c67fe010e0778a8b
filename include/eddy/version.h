#pragma once

namespace eddy {
inline constexpr const char* kVersion = "0.1.0";
}
