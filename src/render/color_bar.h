// The colour map's key, drawn into a finished picture: a vertical bar at the right edge, from the low end
// at the bottom to the high end at the top, with the values of both ends written beside it (a 5 x 7 pixel
// font of the few characters numbers and units need).
#pragma once

#include <string>

#include "render/image.h"
#include "render/offscreen_target.h"

namespace eddy::render {

struct ColorBarPlacement {
  int x0, y0, x1, y1;  // the bar's pixels, inclusive, rows from the top
};

// draws the bar for values from bottom (colour low) to top (colour high), labelled e.g. "0" and
// "3.2 m/s"; returns where the bar went. Pictures narrower than 64 or shorter than 48 pixels get no bar.
ColorBarPlacement drawColorBar(Image& image, Rgb low, Rgb high, float bottom, float top,
                               const std::string& unit);

}  // namespace eddy::render
