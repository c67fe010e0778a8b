// Radiance HDR images (.hdr, RGBE: Ward's "Real pixels", Graphics Gems II, 1991), the usual format of
// equirectangular environment maps: read into linear floats, and tone-mapped (Reinhard et al., "Photographic
// tone reproduction for digital images", SIGGRAPH 2002, the global operator L / (1 + L) with key 0.18) into
// the 8-bit sRGB image the environment texture holds.
#pragma once

#include <string>
#include <vector>

#include "render/image.h"

namespace eddy::render {

struct HdrImage {
  int width = 0, height = 0;
  std::vector<float> rgb;  // linear radiance, width * height * 3, row 0 at the top
};

// flat or run-length encoded 32-bit RGBE with the standard orientation ("-Y H +X W"); InputError naming the
// file and what is wrong for anything else
HdrImage readRadianceHdr(const std::string& path);
Image toneMapped(const HdrImage& hdr);

// an environment image by its extension: .hdr through readRadianceHdr and toneMapped, anything else as a PNG
Image readEnvironmentImage(const std::string& path);

}  // namespace eddy::render
